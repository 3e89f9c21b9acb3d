$trained << EOD
0 0.1544136760063002 0.013090103379957443
0.2 0.17035488385892603 0.012505911594161086
0.4 0.19766950501710712 0.015200035467047434
0.5 0.2487979574110538 0.02386620247265278
0.6 0.3439258180010743 0.008678779511729476
0.7 0.5146099932327034 0.015370551826838654
0.8 0.7995922901565896 0.012265196951409789
0.9 0.9478881127189144 0.0068691547348580856
1 0.9758609393274679 0.003726961918263985
EOD
$simulated << EOD
0 7.452216479526636e-12
0.2 2.93040734865918e-11
0.4 3.713010537371789e-10
0.5 2.654584814576017e-10
0.6 3.9419439032691255e-09
0.7 0.6088454760447743
0.8 0.9804518097042447
0.9 1
1 1
EOD
$reference0 << EOD
0 0.15816172410894608
1 0.15816172410894608
EOD
set terminal pngcairo size 900,560 enhanced font 'DejaVu Sans,11'
set output './figure-2-trained.png'
reset
gs_width = 900; gs_height = 560; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title 'Spread against α: trained cnn on Fashion-MNIST fmnist-2 vs the simulated optimum (K = 2, d = 64, τ = 0.5)' noenhanced
set xlabel 'α (weight of cNCE)' noenhanced; set ylabel 'spread s_f(y)' noenhanced; set grid; set key top left box opaque
set yrange [0:*]
plot $trained using 1:2:3 with yerrorlines lw 2 pt 7 title 'trained L_spread (test set), mean ± sd over 3 seeds' noenhanced, $simulated using 1:2 with linespoints lw 2 pt 5 dt 2 title 'simulated optimum, n_y = 8' noenhanced, $reference0 using 1:2 with lines lw 2 dt 3 title 'SupCon (no α)' noenhanced
unset output
set terminal svg size 900,560 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './figure-2-trained.svg'
reset
gs_width = 900; gs_height = 560; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title 'Spread against α: trained cnn on Fashion-MNIST fmnist-2 vs the simulated optimum (K = 2, d = 64, τ = 0.5)' noenhanced
set xlabel 'α (weight of cNCE)' noenhanced; set ylabel 'spread s_f(y)' noenhanced; set grid; set key top left box opaque
set yrange [0:*]
plot $trained using 1:2:3 with yerrorlines lw 2 pt 7 title 'trained L_spread (test set), mean ± sd over 3 seeds' noenhanced, $simulated using 1:2 with linespoints lw 2 pt 5 dt 2 title 'simulated optimum, n_y = 8' noenhanced, $reference0 using 1:2 with lines lw 2 dt 3 title 'SupCon (no α)' noenhanced
unset output
