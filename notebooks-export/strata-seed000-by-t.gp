$t0 << EOD
0.05 0.2582923313754777 0.03272399416230602
0.1 0.2736670603728239 0.020932353238272482
0.25 0.2439766129999861 0.012547331549993601
1 0.24889976234962652 0.0033309971339300446
EOD
$t1 << EOD
0.05 0.145240752164864 0.007862031031025252
0.1 0.13629195231659447 0.022135472989524976
0.25 0.13148061487628823 0.015445626557993577
1 0.13417236581145012 0.018706589755942298
EOD
$t2 << EOD
0.05 0.3848920699313148 0.04139738036920797
0.1 0.3923865723246409 0.04688464273098422
0.25 0.3783971342212924 0.010466720876229683
1 0.3907013293427471 0.009129394261352508
EOD
$t3 << EOD
0.05 0.23932411645577475 0.014158055963223028
0.1 0.24527802016459152 0.00153493884508963
0.25 0.238528450130141 0.02481134204840626
1 0.24883979533433118 0.035352902550671535
EOD
set terminal pngcairo size 900,560 enhanced font 'DejaVu Sans,11'
set output './strata-seed000-by-t.png'
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
set title 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on (fmnist-4-imbalanced, cnn)' noenhanced
set xlabel 'fraction t' noenhanced; set ylabel 'δ (test embeddings)' noenhanced; set logscale x; set grid; set key outside right
plot $t0 using 1:2:3 with yerrorlines lw 2 title 'SupCon: common–rare' noenhanced, $t1 using 1:2:3 with yerrorlines lw 2 title 'SupCon: rare–rare' noenhanced, $t2 using 1:2:3 with yerrorlines lw 2 title 'SupCon + cNCE (L_spread): common–rare' noenhanced, $t3 using 1:2:3 with yerrorlines lw 2 title 'SupCon + cNCE (L_spread): rare–rare' noenhanced
unset output
set terminal svg size 900,560 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './strata-seed000-by-t.svg'
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
set title 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on (fmnist-4-imbalanced, cnn)' noenhanced
set xlabel 'fraction t' noenhanced; set ylabel 'δ (test embeddings)' noenhanced; set logscale x; set grid; set key outside right
plot $t0 using 1:2:3 with yerrorlines lw 2 title 'SupCon: common–rare' noenhanced, $t1 using 1:2:3 with yerrorlines lw 2 title 'SupCon: rare–rare' noenhanced, $t2 using 1:2:3 with yerrorlines lw 2 title 'SupCon + cNCE (L_spread): common–rare' noenhanced, $t3 using 1:2:3 with yerrorlines lw 2 title 'SupCon + cNCE (L_spread): rare–rare' noenhanced
unset output
