$p1 << EOD
-0.5012110138820134 -0.8653250947264642 1
-0.5187535040867439 -0.8956114123869372 1
-0.5362957761222391 -0.925897856414759 1
-0.5538380900037966 -0.9561842762046165 1
-0.5713802654217979 -0.9864707761948736 1
-0.588922992891479 -1.0167569564275147 1
-0.6064654419319314 -1.0470432979310396 1
-0.6240075646994999 -1.0773298284173698 1
-0.6415501009318164 -1.107616119417904 1
-0.659092246278731 -1.1379026368258651 1
-0.6766349260355751 -1.1681888446945692 1
-0.6941774824232816 -1.1984751240207179 1
-0.7117192611338102 -1.2287618537906944 1
-0.7292619444510786 -1.259048059597183 1
-0.7468043945733978 -1.2893344004740823 1
-0.7643463737430477 -1.3196210141346847 1
-0.7818890765870399 -1.3499072086309736 1
-0.7994315654898966 -1.380193527045528 1
-0.8169739238681399 -1.4104799210621521 1
-0.8345163296051205 -1.4407662876477911 1
0.5012108505027971 0.8653251893584647 2
0.5187534059794956 0.8956114692123324 2
0.5362956072726203 0.9258979542153074 2
0.553838050967222 0.9561842988152592 2
0.5713804815427406 0.9864706510140006 2
0.588922906020898 1.0167570067444338 2
0.6064652187527854 1.047043427200198 2
0.6240077773913664 1.077329705222634 2
0.6415500414312364 1.1076161538816502 2
0.6590922369553484 1.1379026422261243 2
0.6766347873257171 1.1681889250376767 2
0.6941771285607543 1.198475328983933 2
0.71171953380593 1.2287616958544358 2
0.7292620223896937 1.259048014453815 2
0.7468041941185634 1.2893345165809078 2
0.7643467902009029 1.319620772915301 2
0.7818890039986522 1.349907250675392 2
0.7994313422808478 1.3801936563319812 2
0.8169736816637234 1.4104800613510358 2
0.8345160979542897 1.440766421823866 2
EOD
$p2 << EOD
-0.7629372507685174 -0.6464725449621017 1
-0.7896394039397152 -0.6690998518500294 1
-0.8163410488119044 -0.6917277586049878 1
-0.4041493951072267 -0.914692990262013 1
-0.8430451663483092 -0.7143527472451909 1
-0.8697479755732699 -0.7369792798893325 1
-0.41829567717698213 -0.9467067795548155 1
-0.8964504539585909 -0.7596062029745653 1
-0.9231540940999325 -0.7822317550103249 1
-0.9498563473744955 -0.8048589437611924 1
-0.976558528544203 -0.8274862176058168 1
-0.4324395516195649 -0.978721632638755 1
-0.44658500133953744 -1.0107357896990514 1
-0.46072971364775445 -1.042750272578271 1
-0.4748775723584852 -1.0747633652441417 1
-0.4890201138036785 -1.1067788073031744 1
-0.5031654302786754 -1.1387930232366528 1
-0.517311123874127 -1.1708070725427344 1
-0.5314558062565296 -1.2028215686444195 1
-1.0032624665133938 -0.8501114181596798 1
0.762936630914535 0.6464732764846344 2
0.7896399241639014 0.6690992379060283 2
0.8163426511775096 0.6917258675721728 2
0.8430452738403714 0.714352620388148 2
0.4041488660258723 0.9146932240319711 2
0.8697481597310049 0.7369790625550569 2
0.41829438365955673 0.9467073510852609 2
0.4324395149011076 0.9787216488624816 2
0.44658421602431464 1.0107361366835304 2
0.8964507936973473 0.7596058020311564 2
0.4607299227902803 1.0427501801705252 2
0.9231541314059825 0.7822317109834314 2
0.47487410548686865 1.074764897053326 2
0.48902184031978746 1.106778044456181 2
0.5031658723252841 1.138792827922242 2
0.9498562993964058 0.8048590003826542 2
0.9765591816279182 0.8274854468679256 2
0.5173126787011677 1.1708063855544275 2
0.5314556954877044 1.2028216175866144 2
1.0032620073214975 0.8501119600765766 2
EOD
$p3 << EOD
0.953916575082981 -0.3000719376782098 1
0.9873035962005724 -0.31057464308828714 1
0.6568476546811248 -0.7540233143211859 1
0.6798373492384472 -0.7804141071126542 1
1.0206909221227172 -0.3210763795365171 1
0.1664531720783358 -0.986049360582451 1
1.0540780024577912 -0.33157889669668783 1
0.7028266351352586 -0.8068052558978842 1
0.17227905864901136 -1.0205610838901367 1
1.08746497505034 -0.342081756366462 1
1.1208521808379832 -0.3525838747174022 1
0.17810492096390393 -1.055072811292397 1
0.18393058226100595 -1.0895845726280853 1
0.18975664056575567 -1.1240962669456736 1
0.19558253023704167 -1.1586079897299504 1
0.7258158691635653 -0.8331964498666197 1
1.1542392439570737 -0.363086446606594 1
0.20140822759428814 -1.1931197449784021 1
0.20723399038589468 -1.2276314891809916 1
1.1876263411721948 -0.37358891010567497 1
-0.1664531574695122 0.9860493630485393 2
-0.1722790951085438 1.0205610777354686 2
-0.17810495825808395 1.0550728049968336 2
-0.1839307467665469 1.0895845448582229 2
-0.9539167295696094 0.3000714465710141 2
-0.9873038107888287 0.31057396092051387 2
-0.6568480677569318 0.7540229544808202 2
-1.0206907187637397 0.32107702600709426 2
-0.1897565846232428 1.1240962763892257 2
-0.6798366631560072 0.7804147047749072 2
-0.1955825476002437 1.1586079867988992 2
-1.0540779861765854 0.331578948454081 2
-1.0874650267173651 0.3420815921188992 2
-1.1208520374948185 0.352584330400139 2
-0.2014080257753371 1.19311977904705 2
-1.1542392427603472 0.363086450410946 2
-0.7028267993716939 0.8068051128277144 2
-0.2072341218384318 1.2276314669907473 2
-1.1876261696916661 0.37358945523596115 2
-0.7258158770147183 0.8331964430273064 2
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
