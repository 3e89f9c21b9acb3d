$c1 << EOD
0 0.1541532401631193 0.013981784474492151
0.2 0.17041812177572005 0.012511977595608174
0.4 0.19809974968294938 0.014381854138514233
0.5 0.24880172586197338 0.023819091979040617
0.6 0.34375801455707133 0.009576051094321853
0.7 0.5141491014091227 0.01475369974434838
0.8 0.7986019369691136 0.013510707621752582
0.9 0.9480559274708403 0.006866944058663955
1 0.9756915852868958 0.003779078596625648
EOD
$c2 << EOD
0 7.452215572823558e-12
0.2 2.325123055236642e-10
0.4 3.7130103744165416e-10
0.5 2.6545847430227146e-10
0.6 2.7689848322163158e-09
0.7 0.6088454755164601
0.8 0.9804518099152909
0.9 1
1 1
EOD
$c3 << EOD
0 0.15817069902637723
0.2 0.15817069902637723
0.4 0.15817069902637723
0.5 0.15817069902637723
0.6 0.15817069902637723
0.7 0.15817069902637723
0.8 0.15817069902637723
0.9 0.15817069902637723
1 0.15817069902637723
EOD
set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11'
set output './figure-2-trained.png'
reset
gs_width = 900; gs_height = 540; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
ch = 1.35 * gs_font / gs_height; cw = 0.62 * gs_font / gs_width
at_least_1(x) = x < 1 ? 1 : x; at_least_2(x) = x < 2 ? 2 : x
entry_w = 51 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64,'."\n".'τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : (gs_width / (0.62 * gs_font)) < 115 ? 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated: n_y = 8, best of seeds 0:4') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.03:1.03]; set yrange [-0.04999999999217518:1.0499999999996275]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 1.06 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.0999999999918026 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s_f(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6666666666666666, graph 0 to 0.6666666666666666, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'trained L_spread (test set), mean ± sd' noenhanced, NaN with linespoints lt 2 lw 2 title 'simulated optimum' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon (no α)' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced
unset multiplot
unset output
set terminal svg size 900,540 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './figure-2-trained.svg'
reset
gs_width = 900; gs_height = 540; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
ch = 1.35 * gs_font / gs_height; cw = 0.62 * gs_font / gs_width
at_least_1(x) = x < 1 ? 1 : x; at_least_2(x) = x < 2 ? 2 : x
entry_w = 51 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64,'."\n".'τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : (gs_width / (0.62 * gs_font)) < 115 ? 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated: n_y = 8, best of seeds 0:4') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.03:1.03]; set yrange [-0.04999999999217518:1.0499999999996275]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 1.06 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.0999999999918026 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s_f(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6666666666666666, graph 0 to 0.6666666666666666, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'trained L_spread (test set), mean ± sd' noenhanced, NaN with linespoints lt 2 lw 2 title 'simulated optimum' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon (no α)' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './figure-2-trained.pdf'
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
ch = 1.35 * gs_font / gs_height; cw = 0.62 * gs_font / gs_width
at_least_1(x) = x < 1 ? 1 : x; at_least_2(x) = x < 2 ? 2 : x
entry_w = 51 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64,'."\n".'τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : (gs_width / (0.62 * gs_font)) < 115 ? 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated: n_y = 8, best of seeds 0:4') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.03:1.03]; set yrange [-0.04999999999217518:1.0499999999996275]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 1.06 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.0999999999918026 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s_f(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6666666666666666, graph 0 to 0.6666666666666666, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'trained L_spread (test set), mean ± sd' noenhanced, NaN with linespoints lt 2 lw 2 title 'simulated optimum' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon (no α)' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 7in,4.2in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './figure-2-trained-2col.pdf'
reset
gs_width = 504; gs_height = 302.4; gs_font = 8
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
ch = 1.35 * gs_font / gs_height; cw = 0.62 * gs_font / gs_width
at_least_1(x) = x < 1 ? 1 : x; at_least_2(x) = x < 2 ? 2 : x
entry_w = 51 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64,'."\n".'τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : (gs_width / (0.62 * gs_font)) < 115 ? 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated:'."\n".'n_y = 8, best of seeds 0:4' : 'Spread against α: trained cnn encoder vs the simulated optimum'."\n".'Fashion-MNIST fmnist-2 (K = 2), cnn, d = 64, τ = 0.5, 3 epochs, seeds 0:2; simulated: n_y = 8, best of seeds 0:4') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.03:1.03]; set yrange [-0.04999999999217518:1.0499999999996275]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 1.06 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.0999999999918026 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s_f(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6666666666666666, graph 0 to 0.6666666666666666, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'trained L_spread (test set), mean ± sd' noenhanced, NaN with linespoints lt 2 lw 2 title 'simulated optimum' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon (no α)' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced
unset multiplot
unset output
