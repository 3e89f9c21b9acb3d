$s0 << EOD
0.1 68.65 0.5634713834792279
0.3 68.03333333333333 3.2343211549463255
0.5 65.78333333333333 2.371883920712255
0.7 65.05000000000001 4.044749683231334
0.9 63 1.2439855304624703
EOD
$s1 << EOD
0.1 75.6 1.5882380174268549
0.3 70.94999999999999 2.487971060924948
0.5 66.36666666666667 2.447617889568004
0.7 64.91666666666667 2.377148151321943
0.9 62.283333333333324 3.257811126098827
EOD
set terminal pngcairo size 900,560 enhanced font 'DejaVu Sans,11'
set output './temperature-cnn.png'
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
set title 'Coarse-to-fine transfer against the temperature τ, SupCon and L_spread (cnn, mean ± sd over seeds)' noenhanced
set xlabel 'tau' noenhanced; set ylabel 'fine_probe (×100)' noenhanced; set grid; set key outside right
set logscale x
plot $s0 using 1:2:3 with yerrorlines lw 2 title 'SupCon, fmnist-2' noenhanced, $s1 using 1:2:3 with yerrorlines lw 2 title 'SupCon + cNCE (L_spread), fmnist-2' noenhanced
unset output
set terminal svg size 900,560 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './temperature-cnn.svg'
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
set title 'Coarse-to-fine transfer against the temperature τ, SupCon and L_spread (cnn, mean ± sd over seeds)' noenhanced
set xlabel 'tau' noenhanced; set ylabel 'fine_probe (×100)' noenhanced; set grid; set key outside right
set logscale x
plot $s0 using 1:2:3 with yerrorlines lw 2 title 'SupCon, fmnist-2' noenhanced, $s1 using 1:2:3 with yerrorlines lw 2 title 'SupCon + cNCE (L_spread), fmnist-2' noenhanced
unset output
