$c1 << EOD
0.12269709650646148 0.2987306719468388 0.033505798557446446
0.12516223806017096 0.28154102511754603 0.04363218198689438
0.12666704399738654 0.20900567830136607 0.01721381096519389
0.14076541885136135 0.2610590499949309 0.03691841116033577
0.14393882811547407 0.19715069066936652 0.02212443988530515
0.16301544026042009 0.4490277987479385 0.024372502451338606
0.6254736214359808 0.277125886011833 0.011532513970422861
0.7152957530331646 0.20591340559038337 0.011833498741163014
0.8369845597395799 0.15863637058310937 0.014432918303437554
EOD
$c2 << EOD
0.12269709650646148 0.4098823422295202 0.05092195436401172
0.12516223806017096 0.3801115096491309 0.050069471415839735
0.12666704399738654 0.2997229129812476 0.03915543483872216
0.14076541885136135 0.40535695670541005 0.029459412888402967
0.14393882811547407 0.22572168840933832 0.023053602722599664
0.16301544026042009 0.5751044954544698 0.018301821080642364
0.6254736214359808 0.3318745204829972 0.017889363969179735
0.7152957530331646 0.28741401440584197 0.023519701196539494
0.8369845597395799 0.18734129682434447 0.00989362856359801
EOD
set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11'
set output './strata-seed000-by-p.png'
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
entry_w = 37 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(2.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 't = 1, fmnist-4-imbalanced, cnn, τ = 0.5,'."\n".'α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.10126847260946792:0.8584131836365734]; set yrange [0.1217433090668998:0.6158664597478842]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.7571447110271055 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 0.49412315068098445 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'σ_f(z) (test)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with points lt 1 lw 2 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with points lt 2 lw 2 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'p(z|y) in training' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with points lt 1 lw 2 title 'SupCon' noenhanced, NaN with points lt 2 lw 2 title 'SupCon + cNCE (L_spread)' noenhanced
unset multiplot
unset output
set terminal svg size 900,540 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './strata-seed000-by-p.svg'
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
entry_w = 37 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(2.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 't = 1, fmnist-4-imbalanced, cnn, τ = 0.5,'."\n".'α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.10126847260946792:0.8584131836365734]; set yrange [0.1217433090668998:0.6158664597478842]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.7571447110271055 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 0.49412315068098445 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'σ_f(z) (test)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with points lt 1 lw 2 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with points lt 2 lw 2 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'p(z|y) in training' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with points lt 1 lw 2 title 'SupCon' noenhanced, NaN with points lt 2 lw 2 title 'SupCon + cNCE (L_spread)' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './strata-seed000-by-p.pdf'
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
entry_w = 37 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(2.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 't = 1, fmnist-4-imbalanced, cnn, τ = 0.5,'."\n".'α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.10126847260946792:0.8584131836365734]; set yrange [0.1217433090668998:0.6158664597478842]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.7571447110271055 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 0.49412315068098445 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'σ_f(z) (test)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with points lt 1 lw 2 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with points lt 2 lw 2 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'p(z|y) in training' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with points lt 1 lw 2 title 'SupCon' noenhanced, NaN with points lt 2 lw 2 title 'SupCon + cNCE (L_spread)' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 7in,4.2in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './strata-seed000-by-p-2col.pdf'
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
entry_w = 37 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(2.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 3 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 't = 1, fmnist-4-imbalanced, cnn, τ = 0.5,'."\n".'α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : (gs_width / (0.62 * gs_font)) < 115 ? 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs,'."\n".'seeds 0:7 (± sd)' : 'σ_f(z) of each subclass against its share p(z|y) of its class'."\n".'t = 1, fmnist-4-imbalanced, cnn, τ = 0.5, α = 0.5, 4000 images at t = 1, ~3/t epochs, seeds 0:7 (± sd)') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.10126847260946792:0.8584131836365734]; set yrange [0.1217433090668998:0.6158664597478842]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.7571447110271055 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 0.49412315068098445 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'σ_f(z) (test)' noenhanced; set format y '%g'
unset title
unset arrow
plot $c1 using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle, $c1 using 1:2 with points lt 1 lw 2 notitle, $c2 using 1:2:3 with yerrorbars lt 2 lw 1 dt 1 ps 0 notitle, $c2 using 1:2 with points lt 2 lw 2 notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'p(z|y) in training' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with points lt 1 lw 2 title 'SupCon' noenhanced, NaN with points lt 2 lw 2 title 'SupCon + cNCE (L_spread)' noenhanced
unset multiplot
unset output
