$p1 << EOD
-0.4393896430896852 -0.5417186399803454 0.7165735528495063 1
-0.45459323686915576 -0.5608063095076437 0.7416645280780527 1
-0.46972662480956434 -0.5799450603948851 0.7667598221533184 1
-0.4845054278035832 -0.5993417479408458 0.7918768588638505 1
-0.5009012657218503 -0.6175613805075755 0.8168940343176871 1
-0.5153568156860835 -0.6371936188906148 0.8420312610414072 1
-0.5309363136692407 -0.6560076120667404 0.8670989815112291 1
-0.545964162552854 -0.67522302924873 0.8922006467046133 1
0.5605138939530067 0.7913321564368664 0.24416714126724082 2
0.5802340317951555 0.8189544648421773 0.25271931636066436 2
0.6000399060534712 0.8465143526997732 0.2612767915767217 2
0.6201091280583092 0.8738823526280655 0.26985051985127023 2
0.6395181358329961 0.9017312231691521 0.2783834677249265 2
0.6594385486127958 0.9292075388411353 0.2869479924380896 2
0.678441849042361 0.9573518115827169 0.29545586189357087 2
0.6979027468956137 0.9851627408476871 0.30399198989616555 2
-0.12237593333183172 -0.24870219169674343 -0.960818063311884 3
-0.12573388150183507 -0.25808032666943725 -0.9943895293237347 3
-0.1306444472940633 -0.266328194718309 -1.0280570612029838 3
-0.13495589005278136 -0.27501217902764774 -1.0616874347596503 3
-0.13860278076439092 -0.28417994002258773 -1.095276691458892 3
-0.14287693564221748 -0.29289107307960366 -1.1289047792315205 3
-0.14727553324881623 -0.30151163263268643 -1.1625406025999474 3
-0.15214122593843038 -0.3097921131790732 -1.1962052056323766 3
EOD
$p2 << EOD
-0.3966916234477756 0.2751748003893164 -0.8757365957393057 1
-0.410575159980906 0.28480599414383906 -0.9063876564177122 1
0.04081578176511406 0.2477464894803486 -0.9679647456953513 1
0.042243889258386506 0.25641775206519346 -1.001843495884541 1
-0.4244604626948969 0.29443706617454646 -0.937037955299229 1
-0.4383444162434704 0.3040681178305839 -0.9676888717284795 1
0.04367209935387778 0.2650889679300287 -1.0357222537050255 1
0.045101143482064364 0.2737599793326629 -1.0696010286889173 1
-0.2252833359781129 -0.9284550603406388 0.29532798624314893 2
-0.23316980876934706 -0.9609505281696689 0.3056647226764981 2
0.21222221174849248 -0.9558828846925517 0.20310008269920565 2
0.2196503287783478 -0.9893387418752521 0.21020843677706427 2
0.22707735381545358 -1.0227947555461403 0.21731719538840605 2
-0.24105543957836106 -0.9934462727523472 0.31600123133328545 2
0.23450567968096683 -1.0562505614526851 0.22442557258087945 2
-0.24894006039121347 -1.0259422830502485 0.3263376750883396 2
-0.034284079055226215 0.6944221470126313 0.7187506408078553 3
-0.03548428877423574 0.7187269485493258 0.743906875004635 3
0.4032227524181648 0.6669939071506912 0.6265225772118468 3
0.41733500479766833 0.6903388733250357 0.6484510264829954 3
-0.03668374443807457 0.7430317361577183 0.7690631586264219 3
0.43144823360792145 0.7136835846863924 0.6703791186081094 3
0.4455619558307457 0.7370281466673297 0.6923070522076182 3
-0.037884025120423444 0.7673364576195333 0.7942194668028363 3
EOD
$p3 << EOD
0.1632506276630946 -0.10889931785018447 0.9805560520130251 1
-0.6447709126631826 0.20479223617249215 -0.7364309948576017 1
0.867027006070821 -0.4755363006096351 0.14875952926240132 1
-0.7850061113463497 -0.48201170605061916 0.3891402322801566 1
0.5000011316569245 0.2033025176126117 -0.8418235888083493 1
0.5575262206696796 0.8137441392352913 0.16427108426621698 1
-0.5820214919933642 0.7542412661895654 0.303926134504059 1
-0.0760060165204973 -0.9096340408756917 -0.40839808659302823 1
0.9811552048335664 0.14161052879094713 0.1314569213223508 2
-0.633263599191232 -0.6823103812346558 -0.3652803821707177 2
0.15174130794964064 0.778202632547022 0.6094056433596731 2
-0.8775528660504767 0.4519104773312237 -0.16024321441128142 2
-0.48947430606840203 -0.17967493942235693 0.8533064044306878 2
0.3712554415803747 -0.818692015684329 0.43807850957527195 2
0.11026673555372377 0.7227998218813569 -0.6822035359909856 2
0.3858715915989233 -0.41384549771010753 -0.8245210845223955 2
-0.9790476466777863 -0.16621796616182685 -0.11763202480495856 3
-0.3879792488285327 0.438450465059573 0.8106992612353189 3
-0.2522687689735811 0.9350485686097255 -0.2490876202091499 3
0.6880239304711724 0.04299654134073194 0.7244131200715059 3
0.797642311880739 0.4810312545751857 -0.3638346800668857 3
-0.22925015692529815 -0.8391575635665468 0.4932128841167706 3
-0.20650445050124497 -0.13888692251979445 -0.968538246367256 3
0.5693846373571231 -0.7532642567172491 -0.3292325838885147 3
EOD
set terminal pngcairo size 1260,480 enhanced font 'DejaVu Sans,11'
set output './figure-7.png'
reset
gs_width = 1260; gs_height = 480; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5' : 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p1 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.64: atoms' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p2 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.8: continuous' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p3 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
unset multiplot
unset output
set terminal svg size 1260,480 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './figure-7.svg'
reset
gs_width = 1260; gs_height = 480; gs_font = 11
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5' : 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p1 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.64: atoms' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p2 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.8: continuous' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p3 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
unset multiplot
unset output
set terminal pdfcairo size 3.5in,1.7in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './figure-7.pdf'
reset
gs_width = 252; gs_height = 122.4; gs_font = 7
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5' : 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p1 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.64: atoms' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p2 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.8: continuous' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p3 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
unset multiplot
unset output
set terminal pdfcairo size 7in,2.67in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './figure-7-2col.pdf'
reset
gs_width = 504; gs_height = 192.24; gs_font = 8
set linetype 1 lc rgb '#0072b2' lw 1.5 dt 1 pt 7 ps 0.8
set linetype 2 lc rgb '#d55e00' lw 1.5 dt 2 pt 5 ps 0.8
set linetype 3 lc rgb '#009e73' lw 1.5 dt 4 pt 9 ps 0.8
set linetype 4 lc rgb '#cc79a7' lw 1.5 dt 5 pt 11 ps 0.8
set linetype 5 lc rgb '#e69f00' lw 1.5 dt 3 pt 13 ps 0.8
set linetype 6 lc rgb '#56b4e9' lw 1.5 dt 6 pt 15 ps 0.8
set linetype 7 lc rgb '#000000' lw 1.5 dt 7 pt 4 ps 0.8
set linetype 8 lc rgb '#f0e442' lw 1.5 dt 8 pt 6 ps 0.8
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, d = 3, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5' : 'Figure 7: optimal geometry for K = 3 on S^2 (n_y = 8, τ = 0.5)'."\n".'K = 3, n_y = 8, d = 3, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p1 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.64: atoms' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p2 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
set title 'α = 0.8: continuous' noenhanced
set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]
set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9
splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p3 using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle
unset parametric
unset multiplot
unset output
