$c1 << EOD
0 50.24375 6.391424919374394
0.1 50.73125 5.645854199574865
0.2 52.28125 5.269381740638216
0.3 48.59375 5.133533835756529
0.4 50.1 4.992708969802152
EOD
$c2 << EOD
0 50.24375 6.391424919374394
0.1 48.5875 5.435120579553475
0.2 47.512499999999996 4.802064288258896
0.3 44.2375 3.64454092739107
0.4 45.89375 3.299181446099276
EOD
$c3 << EOD
0 53.96875000000001 4.572428043642207
0.1 52.074999999999996 5.467044121696057
0.2 51.387499999999996 6.81362867452327
0.3 51.71875 5.742755529484829
0.4 51.068749999999994 5.893515655847049
EOD
$c4 << EOD
0 53.96875000000001 4.572428043642207
0.1 51.98125 5.420393864181563
0.2 51.506249999999994 4.861910081733018
0.3 51.81875 4.176459325792604
0.4 50.612500000000004 3.9018081888859095
EOD
$c5 << EOD
0 51.83125 6.405184144782368
0.1 42.912499999999994 2.5999656591138707
0.2 35.05625 4.1072616442449466
0.3 30.01875 4.278512550274586
0.4 26.049999999999997 5.812978090937062
EOD
set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11'
set output './noisy-labels-cnn.png'
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
entry_w = 80 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 2 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)' : 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.012:0.41200000000000003]; set yrange [18.32181410233397:60.45638585037118]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.42400000000000004 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 42.1345717480372 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'head_accuracy (×100)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'label_noise' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon, identity' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread), identity' noenhanced, NaN with linespoints lt 4 lw 2 title 'L_spread, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 5 lw 2 title 'Noise-aware L_attract (000 Prop. A1, m = 2: Lemma A4), identity' noenhanced
unset multiplot
unset output
set terminal svg size 900,540 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './noisy-labels-cnn.svg'
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
entry_w = 80 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 2 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)' : 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.012:0.41200000000000003]; set yrange [18.32181410233397:60.45638585037118]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.42400000000000004 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 42.1345717480372 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'head_accuracy (×100)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'label_noise' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon, identity' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread), identity' noenhanced, NaN with linespoints lt 4 lw 2 title 'L_spread, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 5 lw 2 title 'Noise-aware L_attract (000 Prop. A1, m = 2: Lemma A4), identity' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './noisy-labels-cnn.pdf'
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
entry_w = 80 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 2 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)' : 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.012:0.41200000000000003]; set yrange [18.32181410233397:60.45638585037118]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.42400000000000004 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 42.1345717480372 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'head_accuracy (×100)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'label_noise' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon, identity' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread), identity' noenhanced, NaN with linespoints lt 4 lw 2 title 'L_spread, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 5 lw 2 title 'Noise-aware L_attract (000 Prop. A1, m = 2: Lemma A4), identity' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 7in,4.2in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './noisy-labels-cnn-2col.pdf'
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
entry_w = 80 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(5.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 2 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)' : 'Seed 000 Fig. 4 (left) and Fig. A2 analogue: contrastive learning on noisy labels'."\n".'cnn, α = 0.5, augmented, τ = 0.1, 3 epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [-0.012:0.41200000000000003]; set yrange [18.32181410233397:60.45638585037118]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.42400000000000004 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 42.1345717480372 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'head_accuracy (×100)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle, $c5 using 1:2:3 with yerrorbars lt 5 lw 1 dt 1 ps 0 notitle, $c5 using 1:2 with linespoints lt 5 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'label_noise' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon, identity' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread), identity' noenhanced, NaN with linespoints lt 4 lw 2 title 'L_spread, labels corrected geometrically (000 App. E.3.2), identity' noenhanced, NaN with linespoints lt 5 lw 2 title 'Noise-aware L_attract (000 Prop. A1, m = 2: Lemma A4), identity' noenhanced
unset multiplot
unset output
