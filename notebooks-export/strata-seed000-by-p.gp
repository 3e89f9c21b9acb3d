$s0 << EOD
0.6287796996249059 0.2775624221753243 0.00792124578814869
0.8356496902864122 0.16880291252634852 0.02068004603533452
0.12533976669381394 0.20801517635628 0.01701759676582118
0.16435030971358777 0.4487615153988842 0.00959128051093391
0.12287485017761433 0.27539086187453937 0.07505937660252865
0.7220843591046204 0.19902283969620763 0.0072925617679923515
0.12300568350366581 0.2838894879331874 0.048177642995104734
0.14114112491817887 0.1934291757999743 0.03619868565105504
0.1367745159772007 0.2451014206911982 0.018519618180238732
EOD
$d0 << EOD
0.12533976669381394 0.15171670838510107 0.015244125756264893
0.16435030971358777 0.4938603708757334 0.02225265385069104
0.12287485017761433 0.13571118143207786 0.029908762259602643
0.12300568350366581 0.11575565818915394 0.011217837241069555
0.14114112491817887 0.20002213289925055 0.03458493015205413
0.1367745159772007 0.3963325223164422 0.039735596074250354
EOD
$s1 << EOD
0.6287796996249059 0.33280599073859857 0.016957188207843952
0.8356496902864122 0.1922257738288529 0.009420478785079603
0.12533976669381394 0.3033028462416132 0.048112761408542724
0.16435030971358777 0.5823369989165738 0.0017670221559378933
0.12287485017761433 0.37242312036382214 0.07495358792823906
0.7220843591046204 0.2812366102192028 0.012933966025942807
0.12300568350366581 0.41464225848478153 0.06592981329129972
0.14114112491817887 0.2278348762393739 0.018742553493912472
0.1367745159772007 0.3842520354736119 0.011189693380001354
EOD
$d1 << EOD
0.12533976669381394 0.3095124360301512 0.029451791413878166
0.16435030971358777 0.5607441416658819 0.06646928057800422
0.12287485017761433 0.325421601478968 0.027883706628604437
0.12300568350366581 0.2382899363947197 0.02687616264912779
0.14114112491817887 0.29930456853319837 0.03236343159592502
0.1367745159772007 0.6109352919535634 0.030918398601004003
EOD
set terminal pngcairo size 1100,520 enhanced font 'DejaVu Sans,11'
set output './strata-seed000-by-p.png'
reset
gs_width = 1100; gs_height = 520; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set multiplot layout 1,2 title 'fmnist-4-imbalanced, cnn, t = 1: each subclass, mean ± sd over seeds' noenhanced
set xlabel 'p(z|y) in training' noenhanced; set grid; set key top right
set ylabel 'σ_f(z) (test)' noenhanced; set title 'subclass scatter' noenhanced
plot $s0 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon' noenhanced, $s1 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon + cNCE (L_spread)' noenhanced
set ylabel '‖E_z f − E_common f‖ (test)' noenhanced; set title 'distance to the common subclass of its class (rare z only)' noenhanced
plot $d0 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon' noenhanced, $d1 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon + cNCE (L_spread)' noenhanced
unset multiplot
unset output
set terminal svg size 1100,520 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './strata-seed000-by-p.svg'
reset
gs_width = 1100; gs_height = 520; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set multiplot layout 1,2 title 'fmnist-4-imbalanced, cnn, t = 1: each subclass, mean ± sd over seeds' noenhanced
set xlabel 'p(z|y) in training' noenhanced; set grid; set key top right
set ylabel 'σ_f(z) (test)' noenhanced; set title 'subclass scatter' noenhanced
plot $s0 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon' noenhanced, $s1 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon + cNCE (L_spread)' noenhanced
set ylabel '‖E_z f − E_common f‖ (test)' noenhanced; set title 'distance to the common subclass of its class (rare z only)' noenhanced
plot $d0 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon' noenhanced, $d1 using 1:2:3 with yerrorbars pt 7 ps 1.3 title 'SupCon + cNCE (L_spread)' noenhanced
unset multiplot
unset output
