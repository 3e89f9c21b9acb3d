$p1 << EOD
-0.16129658181079523 0.13849371561937315 -0.9771401657030039 1
-0.16712189211731324 0.14334579896711613 -1.0113096731929385 1
-0.17230275168730244 0.14818067247250394 -1.0455879925030607 1
-0.17845739913676045 0.15304155269186814 -1.0797019217557249 1
-0.18459057950776325 0.15790183078225517 -1.1138192536460305 1
-0.18981090262987965 0.16273778904449726 -1.1480911258518374 1
-0.19522741590310927 0.16757896061086175 -1.1823297120686675 1
-0.20115892692179319 0.17243387258185092 -1.2164812557972682 1
0.03847807872772957 -0.9266254462396316 0.3740116573565939 2
0.0395469597374428 -0.9590498838478936 0.3871490129999904 2
0.04179963631521296 -0.9915058183593684 0.4000862439067795 2
0.04208443161171609 -1.0239094547231697 0.4133561770972101 2
0.043932602335681976 -1.0563548106544727 0.4263618656249267 2
0.045369361768480714 -1.0887890965105136 0.4394370538911577 2
0.04626759147938045 -1.1212089909418255 0.45260325740090634 2
0.048206515377086326 -1.1536566889016167 0.46559357386862443 2
0.12250916203629784 0.788139897698198 0.6031807414643129 3
0.12753126973169013 0.8157052635753514 0.6241680048000613 3
0.1316764743114223 0.8432939911274082 0.6453034562446728 3
0.13624333088087068 0.8708713987583676 0.666367587458401 3
0.1394877836682096 0.8984840146662829 0.6876551705589726 3
0.14420011353855036 0.926057731593184 0.708694860297403 3
0.14921798146231902 0.9536231179794243 0.7296827686491659 3
0.1534389758991988 0.9812098253274961 0.7508054071167778 3
EOD
$p2 << EOD
-0.396691623447787 0.27517480038930964 -0.8757365957393026 1
-0.41057515998093275 0.2848059941438334 -0.9063876564177019 1
0.040815781765100756 0.24774648948033806 -0.9679647456953546 1
0.042243889258375196 0.2564177520651814 -1.0018434958845444 1
-0.42446046269489635 0.2944370661745431 -0.9370379552992303 1
-0.43834441624347276 0.30406811783057675 -0.9676888717284805 1
0.04367209935387965 0.26508896793001985 -1.035722253705028 1
0.04510114348204731 0.27375997933265556 -1.06960102868892 1
-0.22528333597813993 -0.9284550603406272 0.2953279862431653 2
-0.2331698087693542 -0.9609505281696626 0.3056647226765116 2
0.21222221174849257 -0.9558828846925503 0.20310008269921118 2
0.219650328778328 -0.9893387418752545 0.21020843677707385 2
0.22707735381545582 -1.0227947555461385 0.2173171953884128 2
-0.24105543957835102 -0.9934462727523456 0.3160012313332979 2
0.23450567968095762 -1.0562505614526856 0.2244255725808869 2
-0.24894006039120697 -1.0259422830502467 0.32633767508835004 2
-0.0342840790552168 0.6944221470126376 0.7187506408078497 3
-0.035484288774220975 0.7187269485493339 0.7439068750046279 3
0.40322275241818784 0.6669939071506935 0.6265225772118296 3
0.4173350047976897 0.6903388733250373 0.6484510264829799 3
-0.03668374443805687 0.7430317361577279 0.7690631586264136 3
0.4314482336079438 0.713683584686392 0.6703791186080955 3
0.4455619558307422 0.7370281466673352 0.6923070522076147 3
-0.03788402512040552 0.7673364576195438 0.7942194668028268 3
EOD
$p3 << EOD
0.1632506276630928 -0.10889931785018887 0.9805560520130248 1
-0.6447709126631787 0.20479223617250067 -0.7364309948576029 1
0.8670270060708152 -0.47553630060964586 0.14875952926240063 1
-0.7850061113463566 -0.48201170605060867 0.38914023228015543 1
0.5000011316569278 0.20330251761261017 -0.8418235888083476 1
0.5575262206696884 0.8137441392352847 0.164271084266221 1
-0.5820214919933541 0.7542412661895728 0.30392613450406003 1
-0.0760060165205083 -0.9096340408756904 -0.4083980865930286 1
0.9811552048335676 0.14161052879094022 0.13145692132234996 2
-0.6332635991912355 -0.6823103812346504 -0.36528038217072173 2
0.1517413079496462 0.7782026325470155 0.60940564335968 2
-0.8775528660504767 0.4519104773312265 -0.16024321441127376 2
-0.48947430606840003 -0.17967493942236298 0.8533064044306877 2
0.37125544158037294 -0.8186920156843348 0.4380785095752625 2
0.11026673555372454 0.7227998218813644 -0.6822035359909775 2
0.3858715915989188 -0.4138454977101004 -0.8245210845224011 2
-0.9790476466777862 -0.16621796616182574 -0.11763202480496195 3
-0.38797924882853474 0.43845046505957275 0.810699261235318 3
-0.25226876897357686 0.9350485686097274 -0.2490876202091473 3
0.6880239304711696 0.04299654134072566 0.7244131200715089 3
0.7976423118807425 0.48103125457518464 -0.36383468006687936 3
-0.22925015692530162 -0.8391575635665471 0.49321288411676845 3
-0.20650445050124272 -0.13888692251978627 -0.9685382463672578 3
0.5693846373571204 -0.753264256717249 -0.3292325838885195 3
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
