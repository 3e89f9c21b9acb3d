$c1 << EOD
0.5 0.1
0.52 0.1
0.54 0.1
0.56 0.1
0.58 0.1
0.6 0.1
0.5 0.15
0.52 0.15
0.54 0.15
0.56 0.15
0.58 0.15
0.6 0.15
0.5 0.2
0.52 0.2
0.54 0.2
0.56 0.2
0.58 0.2
0.6 0.2
0.5 0.25
0.52 0.25
0.54 0.25
0.56 0.25
0.58 0.25
0.6 0.25
0.5 0.3
0.52 0.3
0.54 0.3
0.56 0.3
0.58 0.3
0.6 0.3
0.5 0.35
0.52 0.35
0.54 0.35
0.56 0.35
0.58 0.35
0.6 0.35
0.5 0.4
0.52 0.4
0.54 0.4
0.56 0.4
0.58 0.4
0.6 0.4
0.5 0.45
0.52 0.45
0.54 0.45
0.56 0.45
0.58 0.45
0.6 0.45
0.5 0.5
0.52 0.5
0.54 0.5
0.56 0.5
0.58 0.5
0.6 0.5
0.5 0.55
0.52 0.55
0.54 0.55
0.56 0.55
0.58 0.55
0.6 0.55
0.5 0.6
0.52 0.6
0.54 0.6
0.56 0.6
0.58 0.6
0.6 0.6
0.5 0.65
0.52 0.65
0.54 0.65
0.56 0.65
0.58 0.65
0.6 0.65
0.5 0.7
0.52 0.7
0.54 0.7
0.56 0.7
0.58 0.7
0.6 0.7
0.5 0.75
0.52 0.75
0.54 0.75
0.56 0.75
0.58 0.75
0.6 0.75
0.5 0.8
0.52 0.8
0.54 0.8
0.56 0.8
0.58 0.8
0.6 0.8
0.5 0.85
0.52 0.85
0.54 0.85
0.56 0.85
0.58 0.85
0.6 0.85
0.5 0.9
0.52 0.9
0.54 0.9
0.56 0.9
0.58 0.9
0.6 0.9
0.5 0.95
0.52 0.95
0.54 0.95
0.56 0.95
0.58 0.95
0.6 0.95
0.5 1
0.52 1
0.54 1
0.56 1
0.58 1
EOD
$c2 << EOD
0.62 0.1
0.64 0.1
0.66 0.1
0.68 0.1
0.7 0.1
0.72 0.1
0.74 0.1
0.76 0.1
0.78 0.1
0.62 0.15
0.64 0.15
0.66 0.15
0.68 0.15
0.7 0.15
0.72 0.15
0.74 0.15
0.76 0.15
0.78 0.15
0.62 0.2
0.64 0.2
0.66 0.2
0.68 0.2
0.7 0.2
0.72 0.2
0.74 0.2
0.76 0.2
0.62 0.25
0.64 0.25
0.66 0.25
0.68 0.25
0.7 0.25
0.72 0.25
0.74 0.25
0.76 0.25
0.62 0.3
0.64 0.3
0.66 0.3
0.68 0.3
0.7 0.3
0.72 0.3
0.74 0.3
0.62 0.35
0.64 0.35
0.66 0.35
0.68 0.35
0.7 0.35
0.72 0.35
0.74 0.35
0.62 0.4
0.64 0.4
0.66 0.4
0.68 0.4
0.7 0.4
0.72 0.4
0.74 0.4
0.62 0.45
0.64 0.45
0.66 0.45
0.68 0.45
0.7 0.45
0.72 0.45
0.74 0.45
0.62 0.5
0.64 0.5
0.66 0.5
0.68 0.5
0.7 0.5
0.72 0.5
0.62 0.55
0.64 0.55
0.66 0.55
0.68 0.55
0.7 0.55
0.72 0.55
0.62 0.6
0.64 0.6
0.66 0.6
0.68 0.6
0.7 0.6
0.62 0.65
0.64 0.65
0.66 0.65
0.68 0.65
0.7 0.65
0.62 0.7
0.64 0.7
0.66 0.7
0.68 0.7
0.62 0.75
0.64 0.75
0.66 0.75
0.68 0.75
0.62 0.8
0.64 0.8
0.66 0.8
0.68 0.8
0.62 0.85
0.64 0.85
0.66 0.85
0.68 0.85
0.62 0.9
0.64 0.9
0.66 0.9
0.62 0.95
0.64 0.95
0.66 0.95
0.6 1
0.62 1
0.64 1
0.66 1
EOD
$c3 << EOD
0.8 0.1
0.82 0.1
0.84 0.1
0.8 0.15
0.82 0.15
0.78 0.2
0.8 0.2
0.78 0.25
0.76 0.3
EOD
$c4 << EOD
0.86 0.1
0.88 0.1
0.9 0.1
0.92 0.1
0.94 0.1
0.84 0.15
0.86 0.15
0.88 0.15
0.9 0.15
0.92 0.15
0.94 0.15
0.82 0.2
0.84 0.2
0.86 0.2
0.8 0.25
0.82 0.25
0.78 0.3
0.76 0.35
EOD
$c5 << EOD
0.88 0.2
0.9 0.2
0.92 0.2
0.94 0.2
0.84 0.25
0.86 0.25
0.88 0.25
0.9 0.25
0.92 0.25
0.94 0.25
0.8 0.3
0.82 0.3
0.84 0.3
0.86 0.3
0.88 0.3
0.9 0.3
0.92 0.3
0.94 0.3
0.78 0.35
0.8 0.35
0.82 0.35
0.84 0.35
0.86 0.35
0.88 0.35
0.9 0.35
0.92 0.35
0.94 0.35
0.76 0.4
0.78 0.4
0.8 0.4
0.82 0.4
0.84 0.4
0.86 0.4
0.88 0.4
0.9 0.4
0.92 0.4
0.94 0.4
0.76 0.45
0.78 0.45
0.8 0.45
0.82 0.45
0.84 0.45
0.86 0.45
0.88 0.45
0.9 0.45
0.92 0.45
0.94 0.45
0.74 0.5
0.76 0.5
0.78 0.5
0.8 0.5
0.82 0.5
0.84 0.5
0.86 0.5
0.88 0.5
0.9 0.5
0.92 0.5
0.94 0.5
0.74 0.55
0.76 0.55
0.78 0.55
0.8 0.55
0.82 0.55
0.84 0.55
0.86 0.55
0.88 0.55
0.9 0.55
0.92 0.55
0.94 0.55
0.72 0.6
0.74 0.6
0.76 0.6
0.78 0.6
0.8 0.6
0.82 0.6
0.84 0.6
0.86 0.6
0.88 0.6
0.9 0.6
0.92 0.6
0.94 0.6
0.72 0.65
0.74 0.65
0.76 0.65
0.78 0.65
0.8 0.65
0.82 0.65
0.84 0.65
0.86 0.65
0.88 0.65
0.9 0.65
0.92 0.65
0.94 0.65
0.7 0.7
0.72 0.7
0.74 0.7
0.76 0.7
0.78 0.7
0.8 0.7
0.82 0.7
0.84 0.7
0.86 0.7
0.88 0.7
0.9 0.7
0.92 0.7
0.94 0.7
0.7 0.75
0.72 0.75
0.74 0.75
0.76 0.75
0.78 0.75
0.8 0.75
0.82 0.75
0.84 0.75
0.86 0.75
0.88 0.75
0.9 0.75
0.92 0.75
0.94 0.75
0.7 0.8
0.72 0.8
0.74 0.8
0.76 0.8
0.78 0.8
0.8 0.8
0.82 0.8
0.84 0.8
0.86 0.8
0.88 0.8
0.9 0.8
0.92 0.8
0.94 0.8
0.7 0.85
0.72 0.85
0.74 0.85
0.76 0.85
0.78 0.85
0.8 0.85
0.82 0.85
0.84 0.85
0.86 0.85
0.88 0.85
0.9 0.85
0.92 0.85
0.94 0.85
0.68 0.9
0.7 0.9
0.72 0.9
0.74 0.9
0.76 0.9
0.78 0.9
0.8 0.9
0.82 0.9
0.84 0.9
0.86 0.9
0.88 0.9
0.9 0.9
0.92 0.9
0.94 0.9
0.68 0.95
0.7 0.95
0.72 0.95
0.74 0.95
0.76 0.95
0.78 0.95
0.8 0.95
0.82 0.95
0.84 0.95
0.86 0.95
0.88 0.95
0.9 0.95
0.92 0.95
0.94 0.95
0.68 1
0.7 1
0.72 1
0.74 1
0.76 1
0.78 1
0.8 1
0.82 1
0.84 1
0.86 1
0.88 1
0.9 1
0.92 1
0.94 1
EOD
$pm << EOD
0.74 0.45
0.72 0.55
0.7 0.65
0.68 0.8
0.68 0.85
EOD
$w << EOD
0.8920719978022914 0.1
0.8847389339166407 0.11
0.8776994250375135 0.12
0.8709307704323299 0.13
0.864414024512348 0.14
0.8581331386810682 0.15000000000000002
0.8520743348346724 0.16000000000000003
0.8462256362083482 0.17000000000000004
0.8405765085058896 0.18000000000000005
0.8351175807197164 0.19000000000000006
0.8298404252346667 0.20000000000000007
0.8247373832113405 0.21000000000000008
0.81980142532545 0.22000000000000008
0.8150260405837595 0.2300000000000001
0.81040514769067 0.2400000000000001
0.8059330246405274 0.2500000000000001
0.8016042530675871 0.2600000000000001
0.7974136745252536 0.27000000000000013
0.7933563563649422 0.28000000000000014
0.7894275652879459 0.29000000000000015
0.785622746977841 0.30000000000000016
0.7819375105021698 0.31000000000000016
0.7783676164103852 0.3200000000000002
0.774908967656959 0.3300000000000002
0.7715576026490136 0.3400000000000002
0.7683096898608721 0.3500000000000002
0.7651615235769043 0.3600000000000002
0.7621095204222071 0.3700000000000002
0.7591502164208122 0.3800000000000002
0.756280264385901 0.39000000000000024
0.7534964314983501 0.40000000000000024
0.7507955969708826 0.41000000000000025
0.7481747497271012 0.42000000000000026
0.7456309860493067 0.43000000000000027
0.7431615071676716 0.4400000000000003
0.7407636167772249 0.4500000000000003
0.7384347184791638 0.4600000000000003
0.7361723131501177 0.4700000000000003
0.7339739962477476 0.4800000000000003
0.7318374550640776 0.4900000000000003
0.7297604659396031 0.5000000000000003
0.727740891451915 0.5100000000000003
0.725776677592523 0.5200000000000004
0.7238658509450471 0.5300000000000004
0.7220065158770518 0.5400000000000004
0.720196851756743 0.5500000000000004
0.7184351102045452 0.5600000000000004
0.7167196123883572 0.5700000000000004
0.7150487463700472 0.5800000000000004
0.713420964509583 0.5900000000000004
0.7118347809320684 0.6000000000000004
0.7102887690619362 0.6100000000000004
0.7087815592275919 0.6200000000000004
0.7073118363389612 0.6300000000000004
0.7058783376396403 0.6400000000000005
0.7044798505346597 0.6500000000000005
0.7031152104943128 0.6600000000000005
0.7017832990339665 0.6700000000000005
0.7004830417693675 0.6800000000000005
0.6992134065465617 0.6900000000000005
0.6979734016452575 0.7000000000000005
0.6967620740541993 0.7100000000000005
0.6955785078169152 0.7200000000000005
0.6944218224460375 0.7300000000000005
0.6932911714042689 0.7400000000000005
0.6921857406499701 0.7500000000000006
0.6911047472452763 0.7600000000000006
0.6900474380246158 0.7700000000000006
0.6890130883214693 0.7800000000000006
0.6880010007512098 0.7900000000000006
0.6870105040478729 0.8000000000000006
0.6860409519527334 0.8100000000000006
0.6850917221525783 0.8200000000000006
0.6841622152656346 0.8300000000000006
0.6832518538731283 0.8400000000000006
0.6823600815945297 0.8500000000000006
0.6814863622045699 0.8600000000000007
0.6806301787902005 0.8700000000000007
0.6797910329457002 0.8800000000000007
0.6789684440042233 0.8900000000000007
0.6781619483041255 0.9000000000000007
0.6773710984884782 0.9100000000000007
0.6765954628362412 0.9200000000000007
0.6758346246236284 0.9300000000000007
0.6750881815142569 0.9400000000000007
0.6743557449767408 0.9500000000000007
0.6736369397284322 0.9600000000000007
0.6729314032040921 0.9700000000000008
0.6722387850483038 0.9800000000000008
0.6715587466305177 0.9900000000000008
0.6708909605816507 1.0000000000000007
EOD
set terminal pngcairo size 900,600 enhanced font 'DejaVu Sans,11'
set output './phase-k3.png'
reset
gs_width = 900; gs_height = 600; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3' : 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set xtics tics_nice(1.0 * 0.43999999999999995 / tics_at_least_2(floor((gs_width / (0.62 * gs_font)) * 0.55 / 10)))
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.9 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'α'; set ylabel 'τ'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key outside right top Left reverse samplen 3 width -6
}
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead lw 2 lc 'black'
plot $c1 using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'collapsed', $c2 using 1:2 with points pt 7 ps 1.4 lc rgb '#0072b2' title 'two atoms', $c3 using 1:2 with points pt 9 ps 1.4 lc rgb '#cc79a7' title 'several atoms', $c4 using 1:2 with points pt 11 ps 1.4 lc rgb '#009e73' title 'continuous', $c5 using 1:2 with points pt 13 ps 1.4 lc rgb '#e69f00' title 'uniform-like', $pm using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb '#d55e00' title 'ringed: SLSQP (paper) differs', $w using 1:2 with lines lw 2 dt 2 lc 'black' title 'end of the split window (d = K)', NaN with lines lw 2 dt 1 lc 'black' title 'α = K/(2K-1)'
unset output
set terminal svg size 900,600 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './phase-k3.svg'
reset
gs_width = 900; gs_height = 600; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3' : 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set xtics tics_nice(1.0 * 0.43999999999999995 / tics_at_least_2(floor((gs_width / (0.62 * gs_font)) * 0.55 / 10)))
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.9 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'α'; set ylabel 'τ'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key outside right top Left reverse samplen 3 width -6
}
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead lw 2 lc 'black'
plot $c1 using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'collapsed', $c2 using 1:2 with points pt 7 ps 1.4 lc rgb '#0072b2' title 'two atoms', $c3 using 1:2 with points pt 9 ps 1.4 lc rgb '#cc79a7' title 'several atoms', $c4 using 1:2 with points pt 11 ps 1.4 lc rgb '#009e73' title 'continuous', $c5 using 1:2 with points pt 13 ps 1.4 lc rgb '#e69f00' title 'uniform-like', $pm using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb '#d55e00' title 'ringed: SLSQP (paper) differs', $w using 1:2 with lines lw 2 dt 2 lc 'black' title 'end of the split window (d = K)', NaN with lines lw 2 dt 1 lc 'black' title 'α = K/(2K-1)'
unset output
set terminal pdfcairo size 3.5in,3.8in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './phase-k3.pdf'
reset
gs_width = 252; gs_height = 273.6; gs_font = 7
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3' : 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set xtics tics_nice(1.0 * 0.43999999999999995 / tics_at_least_2(floor((gs_width / (0.62 * gs_font)) * 0.55 / 10)))
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.9 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'α'; set ylabel 'τ'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key outside right top Left reverse samplen 3 width -6
}
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead lw 2 lc 'black'
plot $c1 using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'collapsed', $c2 using 1:2 with points pt 7 ps 1.4 lc rgb '#0072b2' title 'two atoms', $c3 using 1:2 with points pt 9 ps 1.4 lc rgb '#cc79a7' title 'several atoms', $c4 using 1:2 with points pt 11 ps 1.4 lc rgb '#009e73' title 'continuous', $c5 using 1:2 with points pt 13 ps 1.4 lc rgb '#e69f00' title 'uniform-like', $pm using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb '#d55e00' title 'ringed: SLSQP (paper) differs', $w using 1:2 with lines lw 2 dt 2 lc 'black' title 'end of the split window (d = K)', NaN with lines lw 2 dt 1 lc 'black' title 'α = K/(2K-1)'
unset output
set terminal pdfcairo size 7in,4.67in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './phase-k3-2col.pdf'
reset
gs_width = 504; gs_height = 336.24; gs_font = 8
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3' : (gs_width / (0.62 * gs_font)) < 115 ? 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3' : 'Beyond the paper: the geometry of the optimum over (α, τ), K = 3, d = 3, n_y = 8'."\n".'K = 3, n_y = 8, d = 3') noenhanced
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set xtics tics_nice(1.0 * 0.43999999999999995 / tics_at_least_2(floor((gs_width / (0.62 * gs_font)) * 0.55 / 10)))
tics_at_least_2(x) = x < 2 ? 2 : x
tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)
set ytics tics_nice(1.0 * 0.9 / tics_at_least_2(floor(gs_height / (1.35 * gs_font) * 0.5 / 2.5)))
set xlabel 'α'; set ylabel 'τ'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out
if ((gs_width / (0.62 * gs_font)) < 100) {
  set key outside below center horizontal Left reverse samplen 2.5 maxcols 2
} else {
  set key outside right top Left reverse samplen 3 width -6
}
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead lw 2 lc 'black'
plot $c1 using 1:2 with points pt 5 ps 1.4 lc rgb '#000000' title 'collapsed', $c2 using 1:2 with points pt 7 ps 1.4 lc rgb '#0072b2' title 'two atoms', $c3 using 1:2 with points pt 9 ps 1.4 lc rgb '#cc79a7' title 'several atoms', $c4 using 1:2 with points pt 11 ps 1.4 lc rgb '#009e73' title 'continuous', $c5 using 1:2 with points pt 13 ps 1.4 lc rgb '#e69f00' title 'uniform-like', $pm using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb '#d55e00' title 'ringed: SLSQP (paper) differs', $w using 1:2 with lines lw 2 dt 2 lc 'black' title 'end of the split window (d = K)', NaN with lines lw 2 dt 1 lc 'black' title 'α = K/(2K-1)'
unset output
