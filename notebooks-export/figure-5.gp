$c1 << EOD
2 0.9428761549862917
3 0.9089472388264023
4 0.8830487089561417
5 0.8622348508313339
6 0.8449993157152763
8 0.8179529422110251
10 0.7976471958348116
12 0.7818564643041856
16 0.7589944681379611
24 0.7320672278615253
32 0.716976460604057
48 0.7008771061115405
64 0.6925093165046062
96 0.6839817391317305
128 0.6796740591488094
EOD
$x1 << EOD
2 0.9450487412368764
3 0.9100599981685759
4 0.8837014651918821
5 0.8626478317925239
6 0.8452742496407957
8 0.8180883831718313
10 0.7977209472906336
12 0.7818996574534668
16 0.759011835334408
24 0.7320714936959107
32 0.7169779377949375
48 0.7008774188271951
64 0.6925094178873159
96 0.6839817594839985
128 0.6796740656188506
EOD
$c2 << EOD
2 0.8869434271655829
3 0.8376482593381914
4 0.8060421018532175
5 0.783973068788343
6 0.7677132281083585
8 0.7454503035858258
10 0.731010532678445
12 0.7209389751024805
16 0.7078840405992911
24 0.6943873316071331
32 0.6875125380614446
48 0.6805822668729612
64 0.6771045569425912
96 0.6736233674356843
128 0.6718827017830543
EOD
$x2 << EOD
2 0.8889819605896097
3 0.8382775205337729
4 0.8062994549805527
5 0.7840965996541092
6 0.7677793105294168
8 0.7454738942022695
10 0.7310208239503049
12 0.720944119047014
16 0.7078857264629981
24 0.6943876717701563
32 0.6875126461390327
48 0.680582288203033
64 0.6771045636748094
96 0.6736233687602812
128 0.6718827022011056
EOD
$c3 << EOD
2 0.8221242092369972
3 0.7746086330966092
4 0.749121513594058
5 0.7332433430696993
6 0.7224247836895382
8 0.7086689365877867
10 0.7003137292289775
12 0.6947125558358852
16 0.6876891424481238
24 0.6806582119984773
32 0.6771466456183607
48 0.6736418260398046
64 0.6718930230509331
96 0.670147236933209
128 0.6692756254306635
EOD
$x3 << EOD
2 0.823091487822385
3 0.774800388283003
4 0.7491825424493488
5 0.7332683364193482
6 0.7224367954075107
8 0.7086726987370373
10 0.7003152542936669
12 0.6947132845769288
16 0.6876893697035262
24 0.6806582560680337
32 0.6771466594110693
48 0.6736418287314241
64 0.6718930238970097
96 0.6701472370991854
128 0.6692756254829917
EOD
$c4 << EOD
2 0.7577486881160066
3 0.7257087361423569
4 0.7103639038260882
5 0.7013408812963106
6 0.6953997358081209
8 0.6880579497080581
10 0.6836997302443821
12 0.680814756775067
16 0.67723278817236
24 0.6736793237019502
32 0.6719139095675333
48 0.6701564336053277
64 0.6692807755169926
96 0.6684072298631417
128 0.6679712638386587
EOD
$x4 << EOD
2 0.7579706757399529
3 0.7257424671513755
4 0.7103734189379151
5 0.7013445287048374
6 0.6954014194751603
8 0.6880584540120744
10 0.6836999300498154
12 0.6808148509932035
16 0.6772328171467061
24 0.6736793292613172
32 0.6719139113007055
48 0.6701564339425825
64 0.6692807756228953
96 0.6684072298839014
128 0.6679712638452019
EOD
$c5 << EOD
2 0.7145896496982601
3 0.6969717670740502
4 0.6888718152698372
5 0.6841960883842081
6 0.6811487810614875
8 0.6774136035158076
10 0.6752103221996747
12 0.6737567613939922
16 0.6719566949891669
24 0.6701751214410551
32 0.6692911987336406
48 0.6684118240907014
64 0.6679738375578719
96 0.6675369830409202
128 0.6673189799807716
EOD
$x5 << EOD
2 0.7146233419158886
3 0.6969764245100027
4 0.6888730799968625
5 0.6841965638006575
6 0.6811489980181773
8 0.6774136677091636
10 0.6752103474787063
12 0.673756773273045
16 0.6719566986291348
24 0.6701751221375778
32 0.669291198950573
48 0.6684118241328836
64 0.6679738375711144
96 0.6675369830435158
128 0.6673189799815897
EOD
set terminal pngcairo size 900,560 enhanced font 'DejaVu Sans,11'
set output './figure-5.png'
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
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'Figure 5: c(τ, d), the end of Theorem'."\n".'2''s α window' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 5: c(τ, d), the end of Theorem 2''s α window' : 'Figure 5: c(τ, d), the end of Theorem 2''s α window') noenhanced
set xlabel 'dimension d (log scale)'
set ylabel 'upper end of the α window'
set logscale x 2
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.2762094883196251 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key inside top right Left reverse samplen 2.5
}
set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out; set border 3
plot $c1 using 1:2 with lines lt 1 lw 2 title 'c(τ,d), τ = 0.1', $x1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $c2 using 1:2 with lines lt 2 lw 2 title 'c(τ,d), τ = 0.25', $x2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $c3 using 1:2 with lines lt 3 lw 2 title 'c(τ,d), τ = 0.5', $x3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $c4 using 1:2 with lines lt 4 lw 2 title 'c(τ,d), τ = 1', $x4 using 1:2 with lines lw 1 dt 1 lc rgb '#cc79a7' notitle, $c5 using 1:2 with lines lt 5 lw 2 title 'c(τ,d), τ = 2', $x5 using 1:2 with lines lw 1 dt 1 lc rgb '#e69f00' notitle, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'thin: exact end, L(µ_θ*) = L(σ)', 2.0/3 with lines lc 'black' dt 3 title 'α = 2/3'
unset output
set terminal svg size 900,560 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './figure-5.svg'
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
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'Figure 5: c(τ, d), the end of Theorem'."\n".'2''s α window' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 5: c(τ, d), the end of Theorem 2''s α window' : 'Figure 5: c(τ, d), the end of Theorem 2''s α window') noenhanced
set xlabel 'dimension d (log scale)'
set ylabel 'upper end of the α window'
set logscale x 2
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.2762094883196251 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key inside top right Left reverse samplen 2.5
}
set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out; set border 3
plot $c1 using 1:2 with lines lt 1 lw 2 title 'c(τ,d), τ = 0.1', $x1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $c2 using 1:2 with lines lt 2 lw 2 title 'c(τ,d), τ = 0.25', $x2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $c3 using 1:2 with lines lt 3 lw 2 title 'c(τ,d), τ = 0.5', $x3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $c4 using 1:2 with lines lt 4 lw 2 title 'c(τ,d), τ = 1', $x4 using 1:2 with lines lw 1 dt 1 lc rgb '#cc79a7' notitle, $c5 using 1:2 with lines lt 5 lw 2 title 'c(τ,d), τ = 2', $x5 using 1:2 with lines lw 1 dt 1 lc rgb '#e69f00' notitle, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'thin: exact end, L(µ_θ*) = L(σ)', 2.0/3 with lines lc 'black' dt 3 title 'α = 2/3'
unset output
set terminal pdfcairo size 3.5in,3.6in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './figure-5.pdf'
reset
gs_width = 252; gs_height = 259.2; gs_font = 7
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'Figure 5: c(τ, d), the end of Theorem'."\n".'2''s α window' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 5: c(τ, d), the end of Theorem 2''s α window' : 'Figure 5: c(τ, d), the end of Theorem 2''s α window') noenhanced
set xlabel 'dimension d (log scale)'
set ylabel 'upper end of the α window'
set logscale x 2
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.2762094883196251 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key inside top right Left reverse samplen 2.5
}
set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out; set border 3
plot $c1 using 1:2 with lines lt 1 lw 2 title 'c(τ,d), τ = 0.1', $x1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $c2 using 1:2 with lines lt 2 lw 2 title 'c(τ,d), τ = 0.25', $x2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $c3 using 1:2 with lines lt 3 lw 2 title 'c(τ,d), τ = 0.5', $x3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $c4 using 1:2 with lines lt 4 lw 2 title 'c(τ,d), τ = 1', $x4 using 1:2 with lines lw 1 dt 1 lc rgb '#cc79a7' notitle, $c5 using 1:2 with lines lt 5 lw 2 title 'c(τ,d), τ = 2', $x5 using 1:2 with lines lw 1 dt 1 lc rgb '#e69f00' notitle, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'thin: exact end, L(µ_θ*) = L(σ)', 2.0/3 with lines lc 'black' dt 3 title 'α = 2/3'
unset output
set terminal pdfcairo size 7in,4.36in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './figure-5-2col.pdf'
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
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'Figure 5: c(τ, d), the end of Theorem'."\n".'2''s α window' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 5: c(τ, d), the end of Theorem 2''s α window' : 'Figure 5: c(τ, d), the end of Theorem 2''s α window') noenhanced
set xlabel 'dimension d (log scale)'
set ylabel 'upper end of the α window'
set logscale x 2
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.2762094883196251 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key inside top right Left reverse samplen 2.5
}
set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out; set border 3
plot $c1 using 1:2 with lines lt 1 lw 2 title 'c(τ,d), τ = 0.1', $x1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $c2 using 1:2 with lines lt 2 lw 2 title 'c(τ,d), τ = 0.25', $x2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $c3 using 1:2 with lines lt 3 lw 2 title 'c(τ,d), τ = 0.5', $x3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $c4 using 1:2 with lines lt 4 lw 2 title 'c(τ,d), τ = 1', $x4 using 1:2 with lines lw 1 dt 1 lc rgb '#cc79a7' notitle, $c5 using 1:2 with lines lt 5 lw 2 title 'c(τ,d), τ = 2', $x5 using 1:2 with lines lw 1 dt 1 lc rgb '#e69f00' notitle, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'thin: exact end, L(µ_θ*) = L(σ)', 2.0/3 with lines lc 'black' dt 3 title 'α = 2/3'
unset output
