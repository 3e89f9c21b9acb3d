$p1 << EOD
-0.5012110138820145 -0.8653250947264636 1
-0.5187535040867467 -0.8956114123869356 1
-0.5362957761222351 -0.9258978564147612 1
-0.5538380900038035 -0.9561842762046124 1
-0.5713802654217995 -0.9864707761948727 1
-0.5889229928914774 -1.0167569564275156 1
-0.6064654419319276 -1.0470432979310416 1
-0.6240075646994991 -1.0773298284173705 1
-0.6415501009318166 -1.107616119417904 1
-0.6590922462787301 -1.1379026368258656 1
-0.6766349260355713 -1.1681888446945714 1
-0.6941774824232786 -1.1984751240207194 1
-0.7117192611338071 -1.2287618537906961 1
-0.7292619444510808 -1.2590480595971818 1
-0.7468043945734005 -1.2893344004740805 1
-0.7643463737430467 -1.3196210141346854 1
-0.7818890765870377 -1.3499072086309745 1
-0.7994315654898927 -1.3801935270455297 1
-0.8169739238681389 -1.4104799210621528 1
-0.8345163296051229 -1.4407662876477898 1
0.5012108505027943 0.8653251893584663 2
0.5187534059794959 0.8956114692123321 2
0.5362956072726209 0.9258979542153071 2
0.5538380509672224 0.956184298815259 2
0.5713804815427397 0.9864706510140012 2
0.5889229060208996 1.016757006744433 2
0.6064652187527867 1.0470434272001972 2
0.6240077773913651 1.0773297052226347 2
0.641550041431237 1.1076161538816498 2
0.6590922369553501 1.1379026422261231 2
0.676634787325715 1.1681889250376776 2
0.694177128560751 1.198475328983935 2
0.7117195338059303 1.228761695854436 2
0.7292620223896867 1.2590480144538192 2
0.7468041941185607 1.2893345165809091 2
0.764346790200905 1.3196207729153002 2
0.7818890039986477 1.3499072506753946 2
0.7994313422808451 1.3801936563319825 2
0.8169736816637265 1.410480061351034 2
0.8345160979542952 1.4407664218238632 2
EOD
$p2 << EOD
-0.7629372507685118 -0.6464725449621082 1
-0.7896394039397084 -0.6690998518500374 1
-0.816341048811898 -0.691727758604995 1
-0.40414939510721276 -0.9146929902620191 1
-0.8430451663482997 -0.7143527472452023 1
-0.8697479755732688 -0.7369792798893341 1
-0.4182956771769687 -0.9467067795548213 1
-0.896450453958576 -0.7596062029745828 1
-0.9231540940999162 -0.7822317550103443 1
-0.9498563473745005 -0.8048589437611863 1
-0.9765585285441933 -0.8274862176058281 1
-0.43243955161956726 -0.9787216326387539 1
-0.44658500133952855 -1.0107357896990554 1
-0.46072971364775006 -1.042750272578273 1
-0.4748775723584768 -1.0747633652441453 1
-0.4890201138036733 -1.1067788073031768 1
-0.5031654302786668 -1.1387930232366568 1
-0.5173111238741351 -1.1708070725427309 1
-0.5314558062565047 -1.2028215686444304 1
-1.0032624665133876 -0.8501114181596865 1
0.7629366309145292 0.6464732764846415 2
0.7896399241639067 0.6690992379060221 2
0.8163426511775004 0.6917258675721838 2
0.8430452738403688 0.714352620388151 2
0.40414886602586536 0.9146932240319743 2
0.8697481597309953 0.7369790625550682 2
0.4182943836595447 0.9467073510852664 2
0.43243951490109905 0.9787216488624854 2
0.4465842160242969 1.0107361366835383 2
0.8964507936973367 0.7596058020311687 2
0.460729922790272 1.0427501801705288 2
0.9231541314059737 0.7822317109834416 2
0.4748741054868621 1.074764897053329 2
0.48902184031977136 1.106778044456188 2
0.5031658723252718 1.138792827922247 2
0.9498562993964021 0.804859000382659 2
0.976559181627912 0.8274854468679332 2
0.5173126787011577 1.170806385554432 2
0.5314556954877001 1.2028216175866167 2
1.003262007321497 0.8501119600765776 2
EOD
$p3 << EOD
0.953916575082966 -0.30007193767825807 1
0.9873035962005523 -0.3105746430883511 1
0.6568476546810657 -0.7540233143212375 1
0.6798373492384016 -0.780414107112694 1
1.0206909221226943 -0.3210763795365893 1
0.16645317207826854 -0.9860493605824623 1
1.0540780024577716 -0.33157889669675 1
0.70282663513521 -0.8068052558979264 1
0.1722790586489552 -1.020561083890146 1
1.0874649750503156 -0.3420817563665396 1
1.1208521808379603 -0.35258387471747515 1
0.1781049209638467 -1.0550728112924066 1
0.18393058226093836 -1.0895845726280968 1
0.1897566405656951 -1.1240962669456838 1
0.19558253023695266 -1.1586079897299655 1
0.725815869163526 -0.8331964498666539 1
1.154239243957051 -0.36308644660666556 1
0.2014082275942105 -1.1931197449784154 1
0.20723399038581217 -1.2276314891810058 1
1.1876263411721746 -0.37358891010573875 1
-0.16645315746944891 0.98604936304855 2
-0.17227909510848136 1.0205610777354792 2
-0.1781049582580218 1.055072804996844 2
-0.1839307467664546 1.0895845448582384 2
-0.9539167295695885 0.3000714465710804 2
-0.9873038107888084 0.31057396092057865 2
-0.656848067756878 0.7540229544808671 2
-1.0206907187637202 0.3210770260071568 2
-0.1897565846231782 1.1240962763892366 2
-0.6798366631559474 0.7804147047749592 2
-0.19558254760017163 1.1586079867989114 2
-1.0540779861765648 0.33157894845414676 2
-1.0874650267173467 0.34208159211895794 2
-1.1208520374947992 0.35258433040020065 2
-0.20140802577526723 1.1931197790470618 2
-1.1542392427603227 0.36308645041102355 2
-0.7028267993716587 0.8068051128277451 2
-0.2072341218383702 1.227631466990758 2
-1.1876261696916408 0.37358945523604215 2
-0.7258158770146698 0.8331964430273486 2
EOD
set terminal pngcairo size 1260,480 enhanced font 'DejaVu Sans,11'
set output './figure-4.png'
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
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 20, d = 2, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5' : 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p1 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.7: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p2 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.8: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p3 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
unset multiplot
unset output
set terminal svg size 1260,480 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './figure-4.svg'
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
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 20, d = 2, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5' : 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p1 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.7: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p2 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.8: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p3 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
unset multiplot
unset output
set terminal pdfcairo size 3.5in,1.7in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './figure-4.pdf'
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
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 20, d = 2, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5' : 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p1 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.7: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p2 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.8: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p3 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
unset multiplot
unset output
set terminal pdfcairo size 7in,2.67in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './figure-4-2col.pdf'
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
set multiplot layout 1,3 title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 2, n_y = 20, d = 2, τ = 0.5' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5' : 'Figure 4: optimal geometry for K = 2 on S^1 (n_y = 20, τ = 0.5)'."\n".'K = 2, n_y = 20, d = 2, τ = 0.5') noenhanced
unset key; set border 0; unset xtics; unset ytics; unset ztics
set title 'α = 0.6: collapsed' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p1 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.7: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p2 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
set title 'α = 0.8: atoms' noenhanced
set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]
set samples 361
plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, $p3 using 1:2:3 with points pt 7 ps 1.0 lc variable notitle
unset multiplot
unset output
