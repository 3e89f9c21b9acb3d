$on << EOD
2 0.67
3 0.67
4 0.67
6 0.67
8 0.67
16 0.67
32 0.67
EOD
$sat << EOD
2 0.83
3 0.8
4 0.79
6 0.79
8 0.8
16 0.81
32 0.81
EOD
$w << EOD
2 0.823091487822385
3 0.774800388283003
4 0.7491825424493488
6 0.7224367954075107
8 0.7086726987370373
16 0.6876893697035262
32 0.6771466594110693
EOD
set terminal pngcairo size 900,560 enhanced font 'DejaVu Sans,11'
set output './onset-vs-d.png'
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
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 8, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5' : 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.16333333333333333 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'dimension d'; set ylabel 'α'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set logscale x 2
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 1
} else {
  set key inside right center Left reverse samplen 2.5 box opaque
}
set tics nomirror out; set border 3
plot 0.66666667 with lines dt 3 lc 'black' title 'K/(2K-1)', $on using 1:2 with linespoints lt 1 lw 2 title 'onset of spread (optimizer)', $sat using 1:2 with linespoints lt 2 lw 2 title 'saturation, spread ≥ 0.99 (optimizer)', $w using 1:2 with lines dt 2 lc 'gray30' title 'exact end of the split window'
unset output
set terminal svg size 900,560 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './onset-vs-d.svg'
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
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 8, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5' : 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.16333333333333333 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'dimension d'; set ylabel 'α'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set logscale x 2
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 1
} else {
  set key inside right center Left reverse samplen 2.5 box opaque
}
set tics nomirror out; set border 3
plot 0.66666667 with lines dt 3 lc 'black' title 'K/(2K-1)', $on using 1:2 with linespoints lt 1 lw 2 title 'onset of spread (optimizer)', $sat using 1:2 with linespoints lt 2 lw 2 title 'saturation, spread ≥ 0.99 (optimizer)', $w using 1:2 with lines dt 2 lc 'gray30' title 'exact end of the split window'
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './onset-vs-d.pdf'
reset
gs_width = 252; gs_height = 172.8; gs_font = 7
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 8, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5' : 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.16333333333333333 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'dimension d'; set ylabel 'α'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set logscale x 2
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 1
} else {
  set key inside right center Left reverse samplen 2.5 box opaque
}
set tics nomirror out; set border 3
plot 0.66666667 with lines dt 3 lc 'black' title 'K/(2K-1)', $on using 1:2 with linespoints lt 1 lw 2 title 'onset of spread (optimizer)', $sat using 1:2 with linespoints lt 2 lw 2 title 'saturation, spread ≥ 0.99 (optimizer)', $w using 1:2 with lines dt 2 lc 'gray30' title 'exact end of the split window'
unset output
set terminal pdfcairo size 7in,4.36in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './onset-vs-d-2col.pdf'
reset
gs_width = 504; gs_height = 313.92; gs_font = 8
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 8, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5' : 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5'."\n".'K = 2, n_y = 8, τ = 0.5') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.16333333333333333 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'dimension d'; set ylabel 'α'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set logscale x 2
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 1
} else {
  set key inside right center Left reverse samplen 2.5 box opaque
}
set tics nomirror out; set border 3
plot 0.66666667 with lines dt 3 lc 'black' title 'K/(2K-1)', $on using 1:2 with linespoints lt 1 lw 2 title 'onset of spread (optimizer)', $sat using 1:2 with linespoints lt 2 lw 2 title 'saturation, spread ≥ 0.99 (optimizer)', $w using 1:2 with lines dt 2 lc 'gray30' title 'exact end of the split window'
unset output
