$c1 << EOD
0.05 0.2575337320219852 0.021936773584585192
0.1 0.2626478398646029 0.028806757270401533
0.25 0.24082260826542148 0.01739954787373615
1 0.24025409947209664 0.013080551172972806
EOD
$c2 << EOD
0.05 0.15890202707910936 0.015343466626004245
0.1 0.1354649138580194 0.01832226014062612
0.25 0.13569548367448944 0.013937058406083551
1 0.1387902749551799 0.015240385473099607
EOD
$c3 << EOD
0.05 0.3625458488841027 0.030534252779088545
0.1 0.3670887724776524 0.04356433431431356
0.25 0.36464054013365754 0.024230693464896355
1 0.36727818218501224 0.023244177655192412
EOD
$c4 << EOD
0.05 0.2491044916222205 0.02315297070392499
0.1 0.2415761526690768 0.015924215304977334
0.25 0.2506443103542612 0.026592934726685846
1 0.24895844310544202 0.02748893404390648
EOD
set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11'
set output './strata-seed000-by-t.png'
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
entry_w = 50 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000'."\n".'images at t = 1, ~3/t epochs, seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds'."\n".'0:7 (± sd)' : 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.046296296296296294:1.08]; set yrange [0.10246713106366465:0.4253286294456946]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set logscale x 2
set ytics nice(1.0 * 0.32286149838202993 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'δ (test embeddings)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'fraction t' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon: common–rare' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon: rare–rare' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread): common–rare' noenhanced, NaN with linespoints lt 4 lw 2 title 'SupCon + cNCE (L_spread): rare–rare' noenhanced
unset multiplot
unset output
set terminal svg size 900,540 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './strata-seed000-by-t.svg'
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
entry_w = 50 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000'."\n".'images at t = 1, ~3/t epochs, seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds'."\n".'0:7 (± sd)' : 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.046296296296296294:1.08]; set yrange [0.10246713106366465:0.4253286294456946]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set logscale x 2
set ytics nice(1.0 * 0.32286149838202993 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'δ (test embeddings)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'fraction t' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon: common–rare' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon: rare–rare' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread): common–rare' noenhanced, NaN with linespoints lt 4 lw 2 title 'SupCon + cNCE (L_spread): rare–rare' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './strata-seed000-by-t.pdf'
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
entry_w = 50 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000'."\n".'images at t = 1, ~3/t epochs, seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds'."\n".'0:7 (± sd)' : 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.046296296296296294:1.08]; set yrange [0.10246713106366465:0.4253286294456946]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set logscale x 2
set ytics nice(1.0 * 0.32286149838202993 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'δ (test embeddings)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'fraction t' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon: common–rare' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon: rare–rare' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread): common–rare' noenhanced, NaN with linespoints lt 4 lw 2 title 'SupCon + cNCE (L_spread): rare–rare' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 7in,4.2in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './strata-seed000-by-t-2col.pdf'
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
entry_w = 50 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(4.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 2 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000'."\n".'images at t = 1, ~3/t epochs, seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds'."\n".'0:7 (± sd)' : 'δ(f_t, z, z'') = ‖E_z f − E_z'' f‖ against the fraction t of the data trained on'."\n".'fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.046296296296296294:1.08]; set yrange [0.10246713106366465:0.4253286294456946]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set logscale x 2
set ytics nice(1.0 * 0.32286149838202993 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'δ (test embeddings)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with linespoints lt 1 lw 2 pi 1 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 1 notitle, $c3 using 1:2:3 with yerrorbars lt 3 lw 1 dt 1 ps 0 notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 1 notitle, $c4 using 1:2:3 with yerrorbars lt 4 lw 1 dt 1 ps 0 notitle, $c4 using 1:2 with linespoints lt 4 lw 2 pi 1 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'fraction t' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'SupCon: common–rare' noenhanced, NaN with linespoints lt 2 lw 2 title 'SupCon: rare–rare' noenhanced, NaN with linespoints lt 3 lw 2 title 'SupCon + cNCE (L_spread): common–rare' noenhanced, NaN with linespoints lt 4 lw 2 title 'SupCon + cNCE (L_spread): rare–rare' noenhanced
unset multiplot
unset output
