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
32 0.6771466594110691
EOD
set terminal pngcairo size 900,560 enhanced font 'DejaVu Sans,11'
set output './onset-vs-d.png'
set title 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5' noenhanced
set xlabel 'dimension d'; set ylabel 'α'; set grid; set key inside right center box opaque; set logscale x 2
plot 0.66666667 with lines dt 3 lc 'black' title 'K/(2K-1)', $on using 1:2 with linespoints lw 2 pt 7 lc 1 title 'onset of spread (optimizer)', $sat using 1:2 with linespoints lw 2 pt 5 lc 2 title 'saturation, spread ≥ 0.99 (optimizer)', $w using 1:2 with lines dt 2 lc 'gray30' title 'exact end of the split window'
unset output
set terminal svg size 900,560 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './onset-vs-d.svg'
set title 'Beyond the paper: onset and saturation of spread against d, K = 2, n_y = 8, τ = 0.5' noenhanced
set xlabel 'dimension d'; set ylabel 'α'; set grid; set key inside right center box opaque; set logscale x 2
plot 0.66666667 with lines dt 3 lc 'black' title 'K/(2K-1)', $on using 1:2 with linespoints lw 2 pt 7 lc 1 title 'onset of spread (optimizer)', $sat using 1:2 with linespoints lw 2 pt 5 lc 2 title 'saturation, spread ≥ 0.99 (optimizer)', $w using 1:2 with lines dt 2 lc 'gray30' title 'exact end of the split window'
unset output
