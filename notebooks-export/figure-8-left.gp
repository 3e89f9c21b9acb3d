$c1 << EOD
0.5 1.8755657628949385e-07
0.51 9.031382639448345e-08
0.52 1.7026938257337477e-07
0.53 1.8986374435121118e-07
0.54 1.280996296874684e-07
0.55 2.3782224551835993e-11
0.56 2.1640717600450838e-07
0.57 4.88988178144907e-07
0.58 3.83204991351009e-07
0.59 1.0628610182686088e-06
0.6 0.00036549053031359756
0.61 0.07906513270466857
0.62 0.11185009162864812
0.63 0.13705936240130487
0.64 0.15837882305595619
0.65 0.1772408486970283
0.66 0.19438402854930614
0.67 0.21024988371597755
0.68 0.2251291575464888
0.69 0.23922605526581878
0.7 0.2526919200751215
0.71 0.265643031571009
0.72 0.27817240542754024
0.73 0.29035647614517557
0.74 0.3022597286267143
0.75 0.31393816285101744
0.76 0.3254415938996808
0.77 0.32309594489612353
0.78 0.3249537130125723
0.79 0.3645621216965192
0.8 0.409033906673707
0.81 0.44945650558650607
0.82 0.5192974975322724
0.83 0.9999999999999991
0.84 0.9999999999999991
0.85 0.9999999999999979
0.86 0.999999999999997
0.87 0.9999999999999966
0.88 0.9999999999999959
0.89 0.9999999999999805
0.9 0.9999999999999979
0.91 0.9999999999999986
0.92 0.9999999999999957
0.93 0.9999999999999923
0.94 0.999999999999988
0.95 0.9999999999999957
EOD
$t1 << EOD
0.5 0
0.501125 0
0.50225 0
0.503375 0
0.5045 0
0.505625 0
0.50675 0
0.507875 0
0.509 0
0.510125 0
0.51125 0
0.512375 0
0.5135 0
0.514625 0
0.51575 0
0.516875 0
0.518 0
0.519125 0
0.52025 0
0.521375 0
0.5225 0
0.523625 0
0.52475 0
0.525875 0
0.527 0
0.528125 0
0.52925 0
0.530375 0
0.5315 0
0.532625 0
0.53375 0
0.534875 0
0.536 0
0.537125 0
0.53825 0
0.5393749999999999 0
0.5405 0
0.541625 0
0.54275 0
0.543875 0
0.545 0
0.546125 0
0.54725 0
0.548375 0
0.5495 0
0.550625 0
0.55175 0
0.552875 0
0.554 0
0.555125 0
0.55625 0
0.557375 0
0.5585 0
0.559625 0
0.56075 0
0.561875 0
0.563 0
0.564125 0
0.56525 0
0.566375 0
0.5675 0
0.5686249999999999 0
0.56975 0
0.570875 0
0.572 0
0.573125 0
0.5742499999999999 0
0.575375 0
0.5765 0
0.577625 0
0.57875 0
0.579875 0
0.581 0
0.582125 0
0.58325 0
0.584375 0
0.5855 0
0.586625 0
0.58775 0
0.588875 0
0.59 0
0.591125 0
0.5922499999999999 0
0.593375 0
0.5945 0
0.595625 0
0.59675 0
0.5978749999999999 0
0.599 0

0.600125 0.008838834908695269
0.60125 0.02795089521189546
0.602375 0.03852781389733888
0.6035 0.046771314172124864
0.604625 0.05376573097777447
0.60575 0.05994995887358144
0.6068749999999999 0.06555378088650625
0.608 0.07071539313835709
0.609125 0.07552558924243778
0.61025 0.08004781542327831
0.611375 0.0843284789414183
0.6125 0.08840274103593587
0.613625 0.09229799956492535
0.61475 0.09603609664491312
0.615875 0.09963477924901012
0.617 0.10310870029861414
0.618125 0.10647012547930597
0.61925 0.10972944507289681
0.620375 0.112895552776959
0.6214999999999999 0.11597613146915546
0.622625 0.11897787241807158
0.62375 0.1219066459588929
0.624875 0.1247676361560504
0.626 0.12756544832694627
0.6271249999999999 0.1303041958267955
0.62825 0.13298757078387288
0.629375 0.1356189022705832
0.6305 0.1382012045350586
0.631625 0.14073721729356886
0.6327499999999999 0.14322943962499962
0.633875 0.14568015866704892
0.635 0.14809147405665885
0.636125 0.15046531886166947
0.63725 0.15280347760048443
0.638375 0.15510760183016623
0.6395 0.157379223692419
0.640625 0.15961976773528014
0.64175 0.1618305612714749
0.642875 0.16401284348896997
0.644 0.16616777349270917
0.645125 0.16829643742694259
0.64625 0.17039985480348924
0.647375 0.17247898414155777
0.6485 0.17453472800854383
0.649625 0.17656793753780567
0.6507499999999999 0.1785794164882795
0.651875 0.18056992490150475
0.653 0.18254018240382547
0.654125 0.18449087119498486
0.65525 0.18642263875878456
0.6563749999999999 0.18833610032677967
0.6575 0.1902318411219898
0.658625 0.19211041840617885
0.65975 0.19397236335134657
0.660875 0.19581818275354712
0.662 0.19764836060498964
0.663125 0.19946335953850317
0.66425 0.20126362215682084
0.6653749999999999 0.2030495722577261
0.6665 0.20482161596488058
0.667625 0.2065801427730672
0.66875 0.20832552651565187
0.669875 0.21005812626123452
0.671 0.21177828714573357
0.672125 0.21348634114551185
0.67325 0.21518260779658197
0.674375 0.21686739486442594
0.6755 0.21854099896852885
0.676625 0.2202037061653183
0.67775 0.22185579249286164
0.678875 0.22349752448035234
0.6799999999999999 0.22512915962513713
0.681125 0.22675094683979116
0.68225 0.22836312687151217
0.683375 0.22996593269591628
0.6845 0.2315595898871263
0.6856249999999999 0.23314431696588378
0.68675 0.23472032572727144
0.687875 0.23628782154949338
0.689 0.2378470036850469
0.690125 0.23939806553550647
0.6912499999999999 0.2409411949110415
0.692375 0.24247657427570452
0.6935 0.24400438097943816
0.694625 0.24552478747768122
0.69575 0.2470379615393828
0.6968749999999999 0.2485440664441741
0.698 0.2500432611693882
0.699125 0.25153570056757085
0.70025 0.25302153553507545
0.701375 0.2545009131722918
0.7024999999999999 0.25597397693602214
0.703625 0.25744086678447664
0.70475 0.25890171931533085
0.705875 0.2603566678972576
0.707 0.2618058427953136
0.708125 0.26324937129053916
0.7092499999999999 0.2646873777941019
0.710375 0.26611998395629727
0.7115 0.26754730877069366
0.712625 0.2689694686736948
0.71375 0.2703865776397737
0.7148749999999999 0.27179874727261266
0.716 0.2732060868923762
0.717125 0.27460870361932144
0.71825 0.27600670245394493
0.719375 0.2774001863538473
0.7204999999999999 0.2787892563074906
0.721625 0.2801740114050072
0.72275 0.28155454890621695
0.723875 0.2829309643059934
0.725 0.2843033513971152
0.7261249999999999 0.2856718023307304
0.72725 0.2870364076745543
0.728375 0.2883972564689113
0.7295 0.28975443628073344
0.730625 0.29110803325561097
0.73175 0.2924581321679948
0.7328749999999999 0.2938048164696382
0.734 0.2951481683363662
0.735125 0.29648826871325096
0.73625 0.29782519735827223
0.737375 0.29915903288453477
0.7384999999999999 0.30048985280111074
0.739625 0.3018177335525751
0.74075 0.3031427505572935
0.741875 0.3044649782445242
0.743 0.3057844900903894
0.7441249999999999 0.30710135865276783
0.74525 0.3084156556051638
0.746375 0.3097274517695961
0.7474999999999999 0.31103681714855747
0.748625 0.31234382095608637
0.7497499999999999 0.31364853164799367
0.750875 0.3149510169512856
0.752 0.31625134389281906
0.753125 0.3175495788272297
0.75425 0.31884578746416437
0.7553749999999999 0.320140034894855
0.7565 0.3214323856180633
0.757625 0.32272290356542965
0.75875 0.32401165212625527
0.759875 0.3252986941717457
0.7609999999999999 0.32658409207874495
0.7621249999999999 0.32786790775298474
0.76325 0.3291502026518756
0.764375 0.33043103780686506
0.7655 0.3317104738453853
0.766625 0.33298857101241597
0.7677499999999999 0.3342653891916795
0.768875 0.335540987926497
0.77 0.3368154264403207
0.771125 0.3380887636569649
0.77225 0.3393610582205567
0.7733749999999999 0.34063236851522205
0.7745 0.3419027526845311
0.775625 0.34317226865071493
0.77675 0.3444409741336777
0.777875 0.34570892666981673
0.7789999999999999 0.3469761836306712
0.780125 0.3482428022414134
0.78125 0.34950883959920137
0.782375 0.35077435269140755
0.7835 0.35203939841374043
0.7846249999999999 0.35330403358827445
0.78575 0.35456831498140384
0.786875 0.3558322993217357
0.788 0.3570960433179383
0.789125 0.3583596036765588
0.79025 0.3596230371198268
0.7913749999999999 0.3608864004034567
0.7925 0.3621497503344668
0.793625 0.3634131437890273
0.79475 0.36467663773035447
0.795875 0.3659402892266648
0.7969999999999999 0.36720415546920454
0.798125 0.368468293790371
0.79925 0.3697327616819381
0.8003750000000001 0.3709976168134056
0.8015 0.37226291705048464
0.8026249999999999 0.3735287204737374
0.80375 0.3747950853973849
0.804875 0.3760620703883015

0.806 1
0.807125 1
0.8082499999999999 1
0.809375 1
0.8105 1
0.811625 1
0.81275 1
0.8138749999999999 1
0.815 1
0.816125 1
0.81725 1
0.818375 1
0.8194999999999999 1
0.8206249999999999 1
0.82175 1
0.822875 1
0.8240000000000001 1
0.8251249999999999 1
0.8262499999999999 1
0.827375 1
0.8285 1
0.8296250000000001 1
0.8307499999999999 1
0.8318749999999999 1
0.833 1
0.834125 1
0.83525 1
0.836375 1
0.8375 1
0.838625 1
0.83975 1
0.840875 1
0.842 1
0.843125 1
0.84425 1
0.845375 1
0.8465 1
0.847625 1
0.84875 1
0.8498749999999999 1
0.851 1
0.852125 1
0.85325 1
0.854375 1
0.8554999999999999 1
0.856625 1
0.85775 1
0.8588749999999999 1
0.86 1
0.8611249999999999 1
0.86225 1
0.863375 1
0.8644999999999999 1
0.8656249999999999 1
0.8667499999999999 1
0.867875 1
0.869 1
0.870125 1
0.8712499999999999 1
0.8723749999999999 1
0.8734999999999999 1
0.874625 1
0.87575 1
0.8768749999999998 1
0.8779999999999999 1
0.8791249999999999 1
0.88025 1
0.881375 1
0.8825 1
0.883625 1
0.8847499999999999 1
0.885875 1
0.887 1
0.8881249999999999 1
0.88925 1
0.8903749999999999 1
0.8915 1
0.892625 1
0.8937499999999999 1
0.894875 1
0.8959999999999999 1
0.897125 1
0.89825 1
0.8993749999999999 1
0.9005 1
0.9016249999999999 1
0.9027499999999999 1
0.903875 1
0.9049999999999999 1
0.906125 1
0.9072499999999999 1
0.9083749999999999 1
0.9095 1
0.9106249999999999 1
0.91175 1
0.9128749999999999 1
0.9139999999999999 1
0.915125 1
0.91625 1
0.917375 1
0.9184999999999999 1
0.9196249999999999 1
0.92075 1
0.921875 1
0.923 1
0.9241249999999999 1
0.9252499999999999 1
0.926375 1
0.9275 1
0.928625 1
0.92975 1
0.930875 1
0.9319999999999999 1
0.933125 1
0.93425 1
0.935375 1
0.9365 1
0.9376249999999999 1
0.93875 1
0.939875 1
0.941 1
0.942125 1
0.9432499999999999 1
0.944375 1
0.9455 1
0.9466249999999999 1
0.94775 1
0.9488749999999999 1
0.95 1
EOD
$a1 << EOD
0.82 0.7814265149147186
EOD
$c2 << EOD
0.5 3.6206111492738066e-07
0.51 6.128834127092992e-07
0.52 4.3780733925246755e-07
0.53 3.359320498682434e-07
0.54 5.343497807560374e-07
0.55 5.460384216421813e-07
0.56 4.779268714043491e-07
0.57 5.908221470001802e-07
0.58 1.2592818621088052e-06
0.59 1.4329808951239672e-06
0.6 0.0004470039371824109
0.61 0.13695334758222708
0.62 0.19377682365103988
0.63 0.23752064253294133
0.64 0.2745757936912492
0.65 0.3074288698530669
0.66 0.33736273009455936
0.67 0.3651452338998455
0.68 0.3912814053642983
0.69 0.41612616127571256
0.7 0.43994160568940827
0.71 0.4629291309146944
0.72 0.48524864990270017
0.73 0.5070308595943936
0.74 0.5283855507388401
0.75 0.5494076313462196
0.76 0.5701822183636419
0.77 0.5907904854042919
0.78 0.6323904499658498
0.79 0.6584666659577069
0.8 0.6827112594877055
0.81 0.7056687038666679
0.82 0.7283183891243797
0.83 0.7512798315809136
0.84 0.7739629731194989
0.85 0.7967260136860469
0.86 0.8493495545669448
0.87 0.8822155982544371
0.88 0.9016277446705331
0.89 0.9303581298104672
0.9 0.9995930298288052
0.91 0.9997329257536105
0.92 0.9998483954675054
0.93 0.9998447099079558
0.94 0.9998410407436099
0.95 0.9998384385024849
EOD
$t2 << EOD
0.5 0
0.501125 0
0.50225 0
0.503375 0
0.5045 0
0.505625 0
0.50675 0
0.507875 0
0.509 0
0.510125 0
0.51125 0
0.512375 0
0.5135 0
0.514625 0
0.51575 0
0.516875 0
0.518 0
0.519125 0
0.52025 0
0.521375 0
0.5225 0
0.523625 0
0.52475 0
0.525875 0
0.527 0
0.528125 0
0.52925 0
0.530375 0
0.5315 0
0.532625 0
0.53375 0
0.534875 0
0.536 0
0.537125 0
0.53825 0
0.5393749999999999 0
0.5405 0
0.541625 0
0.54275 0
0.543875 0
0.545 0
0.546125 0
0.54725 0
0.548375 0
0.5495 0
0.550625 0
0.55175 0
0.552875 0
0.554 0
0.555125 0
0.55625 0
0.557375 0
0.5585 0
0.559625 0
0.56075 0
0.561875 0
0.563 0
0.564125 0
0.56525 0
0.566375 0
0.5675 0
0.5686249999999999 0
0.56975 0
0.570875 0
0.572 0
0.573125 0
0.5742499999999999 0
0.575375 0
0.5765 0
0.577625 0
0.57875 0
0.579875 0
0.581 0
0.582125 0
0.58325 0
0.584375 0
0.5855 0
0.586625 0
0.58775 0
0.588875 0
0.59 0
0.591125 0
0.5922499999999999 0
0.593375 0
0.5945 0
0.595625 0
0.59675 0
0.5978749999999999 0
0.599 0
EOD
$a2 << EOD
0.78 0.6181656029471188
0.89 0.9289313792454948
EOD
$c3 << EOD
0.5 3.987586263780474e-07
0.51 7.215802211584944e-07
0.52 6.779494441304907e-07
0.53 3.463408006999025e-07
0.54 6.073552703954771e-07
0.55 3.8100813596138076e-07
0.56 5.792023090191327e-07
0.57 2.9925318606075005e-07
0.58 8.541757966148651e-07
0.59 1.0483462909365023e-06
0.6 0.000823553103664508
0.61 0.21232029973147437
0.62 0.2944162901685987
0.63 0.3536296218314167
0.64 0.4006589838147414
0.65 0.4398565339085047
0.66 0.47354180261904405
0.67 0.5031621648296883
0.68 0.5296583890611717
0.69 0.5536716471032997
0.7 0.5756940033081631
0.71 0.5960983758668951
0.72 0.6151728268433813
0.73 0.6331462400858197
0.74 0.6502039285121878
0.75 0.6664990235506918
0.76 0.6821603722400607
0.77 0.6972984951841815
0.78 0.7120101373148984
0.79 0.7263816441671866
0.8 0.7404919519660881
0.81 0.7544149218830132
0.82 0.7682214901076835
0.83 0.7819817233686855
0.84 0.7957669912104501
0.85 0.8096521861749375
0.86 0.824501049680263
0.87 0.8396535855625871
0.88 0.8547927563281226
0.89 0.8706890699914928
0.9 0.8876679961705657
0.91 0.905966154106656
0.92 0.9417367890780938
0.93 0.9897107369458856
0.94 0.9999999999994257
0.95 0.9999999999999032
EOD
$t3 << EOD
0.5 0
0.501125 0
0.50225 0
0.503375 0
0.5045 0
0.505625 0
0.50675 0
0.507875 0
0.509 0
0.510125 0
0.51125 0
0.512375 0
0.5135 0
0.514625 0
0.51575 0
0.516875 0
0.518 0
0.519125 0
0.52025 0
0.521375 0
0.5225 0
0.523625 0
0.52475 0
0.525875 0
0.527 0
0.528125 0
0.52925 0
0.530375 0
0.5315 0
0.532625 0
0.53375 0
0.534875 0
0.536 0
0.537125 0
0.53825 0
0.5393749999999999 0
0.5405 0
0.541625 0
0.54275 0
0.543875 0
0.545 0
0.546125 0
0.54725 0
0.548375 0
0.5495 0
0.550625 0
0.55175 0
0.552875 0
0.554 0
0.555125 0
0.55625 0
0.557375 0
0.5585 0
0.559625 0
0.56075 0
0.561875 0
0.563 0
0.564125 0
0.56525 0
0.566375 0
0.5675 0
0.5686249999999999 0
0.56975 0
0.570875 0
0.572 0
0.573125 0
0.5742499999999999 0
0.575375 0
0.5765 0
0.577625 0
0.57875 0
0.579875 0
0.581 0
0.582125 0
0.58325 0
0.584375 0
0.5855 0
0.586625 0
0.58775 0
0.588875 0
0.59 0
0.591125 0
0.5922499999999999 0
0.593375 0
0.5945 0
0.595625 0
0.59675 0
0.5978749999999999 0
0.599 0
EOD
$a3 << EOD
0.87 0.8390230710034086
0.89 0.8698291689605527
0.9 0.8873161686395412
0.92 0.9411491735500426
EOD
set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11'
set output './figure-8-left.png'
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
entry_w = 26 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(6.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 1 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, τ = 0.25' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5,'."\n".'10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25' : 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5, 10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.5:0.95]; set yrange [-0.03:1.05]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.44999999999999996 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.08 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2 with linespoints lt 1 lw 2 pi 4 notitle, $t1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $a1 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#0072b2' notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 4 notitle, $t2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $a2 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#d55e00' notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 4 notitle, $t3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $a3 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#009e73' notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'd = 3' noenhanced, NaN with linespoints lt 2 lw 2 title 'd = 5' noenhanced, NaN with linespoints lt 3 lw 2 title 'd = 10' noenhanced, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'theory' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced, NaN with points pt 6 ps 1.3 lw 1.5 lc rgb '#444444' title 'paper''s SLSQP' noenhanced
unset multiplot
unset output
set terminal svg size 900,540 enhanced font 'DejaVu Sans,11' background '#ffffff'
set output './figure-8-left.svg'
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
entry_w = 26 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(6.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 1 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, τ = 0.25' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5,'."\n".'10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25' : 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5, 10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.5:0.95]; set yrange [-0.03:1.05]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.44999999999999996 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.08 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2 with linespoints lt 1 lw 2 pi 4 notitle, $t1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $a1 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#0072b2' notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 4 notitle, $t2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $a2 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#d55e00' notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 4 notitle, $t3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $a3 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#009e73' notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'd = 3' noenhanced, NaN with linespoints lt 2 lw 2 title 'd = 5' noenhanced, NaN with linespoints lt 3 lw 2 title 'd = 10' noenhanced, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'theory' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced, NaN with points pt 6 ps 1.3 lw 1.5 lc rgb '#444444' title 'paper''s SLSQP' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 3.5in,2.4in enhanced font 'DejaVu Sans,7' linewidth 0.6
set output './figure-8-left.pdf'
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
entry_w = 26 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(6.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 1 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, τ = 0.25' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5,'."\n".'10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25' : 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5, 10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.5:0.95]; set yrange [-0.03:1.05]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.44999999999999996 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.08 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2 with linespoints lt 1 lw 2 pi 4 notitle, $t1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $a1 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#0072b2' notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 4 notitle, $t2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $a2 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#d55e00' notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 4 notitle, $t3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $a3 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#009e73' notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'd = 3' noenhanced, NaN with linespoints lt 2 lw 2 title 'd = 5' noenhanced, NaN with linespoints lt 3 lw 2 title 'd = 10' noenhanced, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'theory' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced, NaN with points pt 6 ps 1.3 lw 1.5 lc rgb '#444444' title 'paper''s SLSQP' noenhanced
unset multiplot
unset output
set terminal pdfcairo size 7in,4.2in enhanced font 'DejaVu Sans,8' linewidth 0.6
set output './figure-8-left-2col.pdf'
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
entry_w = 26 * cw; key_below = entry_w > 0.3 ? 1 : 0
key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1
key_rows = key_below ? ceil(6.0 / key_cols) : 0
key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw
panel_w = (1 - key_w - left - 2 * cw - 0 * gap) / 1.0
top = 1 - ((gs_width / (0.62 * gs_font)) < 70 ? 1 : (gs_width / (0.62 * gs_font)) < 115 ? 3 : 2) * 1.2 * ch - 0.6 * ch; bottom = 3.7 * ch + key_rows * 1.25 * ch
set multiplot title ((gs_width / (0.62 * gs_font)) < 70 ? 'K = 3, n_y = 8, τ = 0.25' : (gs_width / (0.62 * gs_font)) < 115 ? 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5,'."\n".'10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25' : 'Figure 8 (left): spread against α for K = 3, n_y = 8, by dimension (τ = 0.25, d = 3, 5, 10: geomsim''s choice)'."\n".'K = 3, n_y = 8, τ = 0.25') noenhanced
set tmargin at screen top; set bmargin at screen bottom
set grid lt 1 lc rgb '#dddddd' lw 0.5
set xrange [0.5:0.95]; set yrange [-0.03:1.05]
nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)
set xtics nice(1.0 * 0.44999999999999996 / at_least_2(floor(panel_w / cw / 10)))
set ytics nice(1.0 * 1.08 / at_least_2(floor((top - bottom) / ch / 2.5)))
set tics nomirror out; set border 3
unset xlabel
set lmargin at screen left + 0 * (panel_w + gap)
set rmargin at screen left + 0 * (panel_w + gap) + panel_w
set ylabel 'spread s(y)' noenhanced; set format y '%g'
unset title
unset arrow
set arrow from 0.6, graph 0 to 0.6, graph 1 nohead dt 3 lw 1.2 lc rgb '#666666'
plot $c1 using 1:2 with linespoints lt 1 lw 2 pi 4 notitle, $t1 using 1:2 with lines lw 1 dt 1 lc rgb '#0072b2' notitle, $a1 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#0072b2' notitle, $c2 using 1:2 with linespoints lt 2 lw 2 pi 4 notitle, $t2 using 1:2 with lines lw 1 dt 1 lc rgb '#d55e00' notitle, $a2 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#d55e00' notitle, $c3 using 1:2 with linespoints lt 3 lw 2 pi 4 notitle, $t3 using 1:2 with lines lw 1 dt 1 lc rgb '#009e73' notitle, $a3 using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '#009e73' notitle
unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale
set xrange [0:1]; set yrange [0:1]
set label 1 'α (weight of cNCE)' noenhanced at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center
if (key_below) {
  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0
  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle
} else {
  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1
  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle
}
plot NaN with linespoints lt 1 lw 2 title 'd = 3' noenhanced, NaN with linespoints lt 2 lw 2 title 'd = 5' noenhanced, NaN with linespoints lt 3 lw 2 title 'd = 10' noenhanced, NaN with lines lw 1 dt 1 lc rgb '#444444' title 'theory' noenhanced, NaN with lines dt 3 lw 1.2 lc rgb '#666666' title 'α = K/(2K−1)' noenhanced, NaN with points pt 6 ps 1.3 lw 1.5 lc rgb '#444444' title 'paper''s SLSQP' noenhanced
unset multiplot
unset output
