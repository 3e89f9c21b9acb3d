$c1 << EOD
0.1 63.449999999999996 2.3668544526438478
0.3 67.89999999999999 2.3903974564912844
0.5 66.65833333333335 3.3720048438083032
0.7 68.4 2.2142718893577618
0.9 65.24166666666666 2.2179758038956736
EOD
$c2 << EOD
0.1 27.758333333333336 2.850511649979117
0.3 35.53333333333333 2.6828467467722916
0.5 45.283333333333324 5.189380181357564
0.7 69.45 1.8308467986153285
0.9 67.29166666666666 2.534446027570258
EOD
$c3 << EOD
0.1 25.69166666666667 6.488021013118457
0.3 32.475 4.675227267203168
0.5 43.43333333333333 4.251901535391742
0.7 54.20833333333333 4.519227441351748
0.9 64.64999999999999 4.066816937114331
EOD
$c4 << EOD
0.1 30.133333333333333 9.103881955883802
0.3 48.233333333333334 7.273009464222266
0.5 55.25833333333333 4.609925885159832
0.7 64.86666666666666 1.5506987672229144
0.9 66.44166666666665 1.3760147770524391
EOD
$c5 << EOD
0.1 58.01666666666667 1.6117278513032736
0.3 61.416666666666664 2.6470108928122436
0.5 63.891666666666666 1.5541610813125737
0.7 66.75833333333334 2.4169022873642763
0.9 65.41666666666667 2.574813909133372
EOD
set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11'
set output './coreset-seed000.png'
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
entry_w = 40 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'identity, cnn, a pool of 3000 images, ~4/size'."\n".'epochs of cross entropy, seeds 0:5 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (±'."\n".'sd)' : 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.07600000000000001:0.924]; set yrange [16.599785596294858:73.88470685586869]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.8480000000000001 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 57.28492125957383 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'test accuracy of the end model (%)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'coreset size (share of the pool)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'Random' noenhanced, NaN with linespoints lt 2 lw 2 title 'Forgetting (Toneva et al.)' noenhanced, NaN with linespoints lt 3 lw 2 title 'EL2N (Paul et al.)' noenhanced, NaN with linespoints lt 4 lw 2 title 'GraNd (Paul et al.)' noenhanced, NaN with linespoints lt 5 lw 2 title 'L_spread buckets (seed 000)' noenhanced
unset multiplot
unset output
set terminal svg size 900,540 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './coreset-seed000.svg'
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
entry_w = 40 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'identity, cnn, a pool of 3000 images, ~4/size'."\n".'epochs of cross entropy, seeds 0:5 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (±'."\n".'sd)' : 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.07600000000000001:0.924]; set yrange [16.599785596294858:73.88470685586869]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.8480000000000001 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 57.28492125957383 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'test accuracy of the end model (%)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'coreset size (share of the pool)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'Random' noenhanced, NaN with linespoints lt 2 lw 2 title 'Forgetting (Toneva et al.)' noenhanced, NaN with linespoints lt 3 lw 2 title 'EL2N (Paul et al.)' noenhanced, NaN with linespoints lt 4 lw 2 title 'GraNd (Paul et al.)' noenhanced, NaN with linespoints lt 5 lw 2 title 'L_spread buckets (seed 000)' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './coreset-seed000.pdf'
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
entry_w = 40 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'identity, cnn, a pool of 3000 images, ~4/size'."\n".'epochs of cross entropy, seeds 0:5 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (±'."\n".'sd)' : 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.07600000000000001:0.924]; set yrange [16.599785596294858:73.88470685586869]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.8480000000000001 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 57.28492125957383 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'test accuracy of the end model (%)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'coreset size (share of the pool)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'Random' noenhanced, NaN with linespoints lt 2 lw 2 title 'Forgetting (Toneva et al.)' noenhanced, NaN with linespoints lt 3 lw 2 title 'EL2N (Paul et al.)' noenhanced, NaN with linespoints lt 4 lw 2 title 'GraNd (Paul et al.)' noenhanced, NaN with linespoints lt 5 lw 2 title 'L_spread buckets (seed 000)' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 7in,4.2in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './coreset-seed000-2col.pdf'
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
entry_w = 40 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'identity, cnn, a pool of 3000 images, ~4/size'."\n".'epochs of cross entropy, seeds 0:5 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (±'."\n".'sd)' : 'End-model accuracy against the coreset''s size'."\n".'identity, cnn, a pool of 3000 images, ~4/size epochs of cross entropy, seeds 0:5 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.07600000000000001:0.924]; set yrange [16.599785596294858:73.88470685586869]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.8480000000000001 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 57.28492125957383 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'test accuracy of the end model (%)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'coreset size (share of the pool)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'Random' noenhanced, NaN with linespoints lt 2 lw 2 title 'Forgetting (Toneva et al.)' noenhanced, NaN with linespoints lt 3 lw 2 title 'EL2N (Paul et al.)' noenhanced, NaN with linespoints lt 4 lw 2 title 'GraNd (Paul et al.)' noenhanced, NaN with linespoints lt 5 lw 2 title 'L_spread buckets (seed 000)' noenhanced
unset multiplot
unset output
