; Stresses: a switch with 300 cases on i32 (positive and negative
; values, unsorted, many sharing a destination), a switch on i8 covering
; every value, an empty switch table, and a switch on i64 whose cases are
; split one per line with comments between.

define i32 @big(i32 %x) {
entry:
  switch i32 %x, label %default [
    i32 -57454, label %b0
    i32 26834, label %b1
    i32 67487, label %b2
    i32 -52624, label %b3
    i32 38479, label %b4
    i32 48578, label %b5
    i32 -4413, label %b6
    i32 51284, label %b7
    i32 30200, label %b8
    i32 -39510, label %b9
    i32 1132, label %b0
    i32 59858, label %b1
    i32 -83784, label %b2
    i32 9621, label %b3
    i32 13677, label %b4
    i32 -13581, label %b5
    i32 -41480, label %b6
    i32 -4537, label %b7
    i32 -3872, label %b8
    i32 93930, label %b9
    i32 78582, label %b0
    i32 -18839, label %b1
    i32 16822, label %b2
    i32 -66095, label %b3
    i32 43587, label %b4
    i32 -45487, label %b5
    i32 83237, label %b6
    i32 40478, label %b7
    i32 -37246, label %b8
    i32 -81975, label %b9
    i32 -71183, label %b0
    i32 2485, label %b1
    i32 30156, label %b2
    i32 -92911, label %b3
    i32 81418, label %b4
    i32 60974, label %b5
    i32 93557, label %b6
    i32 -5214, label %b7
    i32 -62185, label %b8
    i32 -15110, label %b9
    i32 75283, label %b0
    i32 -72985, label %b1
    i32 91628, label %b2
    i32 22156, label %b3
    i32 -61059, label %b4
    i32 -56211, label %b5
    i32 -83683, label %b6
    i32 -84546, label %b7
    i32 -61812, label %b8
    i32 66839, label %b9
    i32 -78877, label %b0
    i32 -50751, label %b1
    i32 22054, label %b2
    i32 4973, label %b3
    i32 28178, label %b4
    i32 -52876, label %b5
    i32 -39194, label %b6
    i32 -75325, label %b7
    i32 -36912, label %b8
    i32 -87343, label %b9
    i32 -47593, label %b0
    i32 -94086, label %b1
    i32 70638, label %b2
    i32 -84096, label %b3
    i32 96522, label %b4
    i32 50581, label %b5
    i32 65314, label %b6
    i32 -6818, label %b7
    i32 -46010, label %b8
    i32 -67547, label %b9
    i32 17751, label %b0
    i32 78971, label %b1
    i32 41968, label %b2
    i32 -62221, label %b3
    i32 35695, label %b4
    i32 4589, label %b5
    i32 -10857, label %b6
    i32 -81568, label %b7
    i32 2859, label %b8
    i32 -26094, label %b9
    i32 89563, label %b0
    i32 82267, label %b1
    i32 34200, label %b2
    i32 9874, label %b3
    i32 -31123, label %b4
    i32 -90171, label %b5
    i32 83891, label %b6
    i32 8867, label %b7
    i32 -42799, label %b8
    i32 24295, label %b9
    i32 -3203, label %b0
    i32 -87789, label %b1
    i32 -5951, label %b2
    i32 -42045, label %b3
    i32 12090, label %b4
    i32 -55948, label %b5
    i32 -21292, label %b6
    i32 -57680, label %b7
    i32 -84376, label %b8
    i32 9824, label %b9
    i32 57883, label %b0
    i32 48230, label %b1
    i32 19706, label %b2
    i32 24282, label %b3
    i32 -38833, label %b4
    i32 3987, label %b5
    i32 -6792, label %b6
    i32 66275, label %b7
    i32 -93316, label %b8
    i32 -78247, label %b9
    i32 47945, label %b0
    i32 27130, label %b1
    i32 -87001, label %b2
    i32 44236, label %b3
    i32 -81012, label %b4
    i32 5037, label %b5
    i32 29418, label %b6
    i32 -92404, label %b7
    i32 78408, label %b8
    i32 -76221, label %b9
    i32 71695, label %b0
    i32 51505, label %b1
    i32 -73402, label %b2
    i32 -69305, label %b3
    i32 -96838, label %b4
    i32 52774, label %b5
    i32 -4137, label %b6
    i32 81008, label %b7
    i32 40671, label %b8
    i32 66306, label %b9
    i32 -270, label %b0
    i32 -83541, label %b1
    i32 78782, label %b2
    i32 82725, label %b3
    i32 -69122, label %b4
    i32 50215, label %b5
    i32 -45274, label %b6
    i32 -32059, label %b7
    i32 19591, label %b8
    i32 -26753, label %b9
    i32 31779, label %b0
    i32 -64106, label %b1
    i32 98789, label %b2
    i32 -16478, label %b3
    i32 -34877, label %b4
    i32 -82961, label %b5
    i32 -65090, label %b6
    i32 -19134, label %b7
    i32 9608, label %b8
    i32 -60437, label %b9
    i32 39615, label %b0
    i32 -40562, label %b1
    i32 -75465, label %b2
    i32 5288, label %b3
    i32 77261, label %b4
    i32 61898, label %b5
    i32 4351, label %b6
    i32 -27014, label %b7
    i32 60754, label %b8
    i32 -84505, label %b9
    i32 -49238, label %b0
    i32 38440, label %b1
    i32 93953, label %b2
    i32 -79653, label %b3
    i32 -30596, label %b4
    i32 -77486, label %b5
    i32 -24519, label %b6
    i32 72626, label %b7
    i32 25467, label %b8
    i32 91669, label %b9
    i32 -9035, label %b0
    i32 60148, label %b1
    i32 21030, label %b2
    i32 -17753, label %b3
    i32 46868, label %b4
    i32 45926, label %b5
    i32 94078, label %b6
    i32 27944, label %b7
    i32 17659, label %b8
    i32 -69050, label %b9
    i32 -9960, label %b0
    i32 42389, label %b1
    i32 26228, label %b2
    i32 3500, label %b3
    i32 80897, label %b4
    i32 -24652, label %b5
    i32 -84796, label %b6
    i32 68536, label %b7
    i32 29791, label %b8
    i32 -24081, label %b9
    i32 -10333, label %b0
    i32 -82346, label %b1
    i32 69640, label %b2
    i32 -56757, label %b3
    i32 -69761, label %b4
    i32 -60456, label %b5
    i32 64477, label %b6
    i32 -4682, label %b7
    i32 -81688, label %b8
    i32 41737, label %b9
    i32 -17649, label %b0
    i32 35894, label %b1
    i32 -8376, label %b2
    i32 53496, label %b3
    i32 15507, label %b4
    i32 59634, label %b5
    i32 74103, label %b6
    i32 -5169, label %b7
    i32 -80811, label %b8
    i32 23794, label %b9
    i32 4306, label %b0
    i32 -18250, label %b1
    i32 -77470, label %b2
    i32 81540, label %b3
    i32 46609, label %b4
    i32 35132, label %b5
    i32 44032, label %b6
    i32 -98927, label %b7
    i32 3316, label %b8
    i32 -72859, label %b9
    i32 85177, label %b0
    i32 98742, label %b1
    i32 -93946, label %b2
    i32 -10181, label %b3
    i32 -8934, label %b4
    i32 -76143, label %b5
    i32 -8203, label %b6
    i32 54435, label %b7
    i32 60887, label %b8
    i32 46296, label %b9
    i32 39387, label %b0
    i32 91219, label %b1
    i32 -9749, label %b2
    i32 49661, label %b3
    i32 37677, label %b4
    i32 -2379, label %b5
    i32 10545, label %b6
    i32 -21418, label %b7
    i32 48462, label %b8
    i32 -41597, label %b9
    i32 25932, label %b0
    i32 49737, label %b1
    i32 -85847, label %b2
    i32 -78543, label %b3
    i32 40139, label %b4
    i32 -29238, label %b5
    i32 -6757, label %b6
    i32 -60339, label %b7
    i32 -46205, label %b8
    i32 -1374, label %b9
    i32 29179, label %b0
    i32 86675, label %b1
    i32 62269, label %b2
    i32 75168, label %b3
    i32 -67104, label %b4
    i32 -10839, label %b5
    i32 78362, label %b6
    i32 -27167, label %b7
    i32 -36012, label %b8
    i32 82503, label %b9
    i32 -56389, label %b0
    i32 98479, label %b1
    i32 -92677, label %b2
    i32 -89723, label %b3
    i32 -60159, label %b4
    i32 -50033, label %b5
    i32 18799, label %b6
    i32 53501, label %b7
    i32 -53806, label %b8
    i32 52462, label %b9
    i32 -52200, label %b0
    i32 -86218, label %b1
    i32 -60347, label %b2
    i32 -43719, label %b3
    i32 -48844, label %b4
    i32 87859, label %b5
    i32 35353, label %b6
    i32 52016, label %b7
    i32 33021, label %b8
    i32 -73162, label %b9
    i32 11285, label %b0
    i32 44453, label %b1
    i32 -41531, label %b2
    i32 55810, label %b3
    i32 -33873, label %b4
    i32 30132, label %b5
    i32 -61570, label %b6
    i32 -73213, label %b7
    i32 17238, label %b8
    i32 57477, label %b9
    i32 -99939, label %b0
    i32 58633, label %b1
    i32 -31551, label %b2
    i32 12858, label %b3
    i32 -35090, label %b4
    i32 52829, label %b5
    i32 -21858, label %b6
    i32 -67798, label %b7
    i32 -25395, label %b8
    i32 -74460, label %b9
  ]

b0:
  ret i32 0

b1:
  ret i32 1

b2:
  ret i32 2

b3:
  ret i32 3

b4:
  ret i32 4

b5:
  ret i32 5

b6:
  ret i32 6

b7:
  ret i32 7

b8:
  ret i32 8

b9:
  ret i32 9

default:
  ret i32 -1
}

define i8 @every(i8 %x) {
entry:
  switch i8 %x, label %never [ i8 -128, label %even i8 -127, label %odd i8 -126, label %even i8 -125, label %odd i8 -124, label %even i8 -123, label %odd i8 -122, label %even i8 -121, label %odd i8 -120, label %even i8 -119, label %odd i8 -118, label %even i8 -117, label %odd i8 -116, label %even i8 -115, label %odd i8 -114, label %even i8 -113, label %odd i8 -112, label %even i8 -111, label %odd i8 -110, label %even i8 -109, label %odd i8 -108, label %even i8 -107, label %odd i8 -106, label %even i8 -105, label %odd i8 -104, label %even i8 -103, label %odd i8 -102, label %even i8 -101, label %odd i8 -100, label %even i8 -99, label %odd i8 -98, label %even i8 -97, label %odd i8 -96, label %even i8 -95, label %odd i8 -94, label %even i8 -93, label %odd i8 -92, label %even i8 -91, label %odd i8 -90, label %even i8 -89, label %odd i8 -88, label %even i8 -87, label %odd i8 -86, label %even i8 -85, label %odd i8 -84, label %even i8 -83, label %odd i8 -82, label %even i8 -81, label %odd i8 -80, label %even i8 -79, label %odd i8 -78, label %even i8 -77, label %odd i8 -76, label %even i8 -75, label %odd i8 -74, label %even i8 -73, label %odd i8 -72, label %even i8 -71, label %odd i8 -70, label %even i8 -69, label %odd i8 -68, label %even i8 -67, label %odd i8 -66, label %even i8 -65, label %odd i8 -64, label %even i8 -63, label %odd i8 -62, label %even i8 -61, label %odd i8 -60, label %even i8 -59, label %odd i8 -58, label %even i8 -57, label %odd i8 -56, label %even i8 -55, label %odd i8 -54, label %even i8 -53, label %odd i8 -52, label %even i8 -51, label %odd i8 -50, label %even i8 -49, label %odd i8 -48, label %even i8 -47, label %odd i8 -46, label %even i8 -45, label %odd i8 -44, label %even i8 -43, label %odd i8 -42, label %even i8 -41, label %odd i8 -40, label %even i8 -39, label %odd i8 -38, label %even i8 -37, label %odd i8 -36, label %even i8 -35, label %odd i8 -34, label %even i8 -33, label %odd i8 -32, label %even i8 -31, label %odd i8 -30, label %even i8 -29, label %odd i8 -28, label %even i8 -27, label %odd i8 -26, label %even i8 -25, label %odd i8 -24, label %even i8 -23, label %odd i8 -22, label %even i8 -21, label %odd i8 -20, label %even i8 -19, label %odd i8 -18, label %even i8 -17, label %odd i8 -16, label %even i8 -15, label %odd i8 -14, label %even i8 -13, label %odd i8 -12, label %even i8 -11, label %odd i8 -10, label %even i8 -9, label %odd i8 -8, label %even i8 -7, label %odd i8 -6, label %even i8 -5, label %odd i8 -4, label %even i8 -3, label %odd i8 -2, label %even i8 -1, label %odd i8 0, label %even i8 1, label %odd i8 2, label %even i8 3, label %odd i8 4, label %even i8 5, label %odd i8 6, label %even i8 7, label %odd i8 8, label %even i8 9, label %odd i8 10, label %even i8 11, label %odd i8 12, label %even i8 13, label %odd i8 14, label %even i8 15, label %odd i8 16, label %even i8 17, label %odd i8 18, label %even i8 19, label %odd i8 20, label %even i8 21, label %odd i8 22, label %even i8 23, label %odd i8 24, label %even i8 25, label %odd i8 26, label %even i8 27, label %odd i8 28, label %even i8 29, label %odd i8 30, label %even i8 31, label %odd i8 32, label %even i8 33, label %odd i8 34, label %even i8 35, label %odd i8 36, label %even i8 37, label %odd i8 38, label %even i8 39, label %odd i8 40, label %even i8 41, label %odd i8 42, label %even i8 43, label %odd i8 44, label %even i8 45, label %odd i8 46, label %even i8 47, label %odd i8 48, label %even i8 49, label %odd i8 50, label %even i8 51, label %odd i8 52, label %even i8 53, label %odd i8 54, label %even i8 55, label %odd i8 56, label %even i8 57, label %odd i8 58, label %even i8 59, label %odd i8 60, label %even i8 61, label %odd i8 62, label %even i8 63, label %odd i8 64, label %even i8 65, label %odd i8 66, label %even i8 67, label %odd i8 68, label %even i8 69, label %odd i8 70, label %even i8 71, label %odd i8 72, label %even i8 73, label %odd i8 74, label %even i8 75, label %odd i8 76, label %even i8 77, label %odd i8 78, label %even i8 79, label %odd i8 80, label %even i8 81, label %odd i8 82, label %even i8 83, label %odd i8 84, label %even i8 85, label %odd i8 86, label %even i8 87, label %odd i8 88, label %even i8 89, label %odd i8 90, label %even i8 91, label %odd i8 92, label %even i8 93, label %odd i8 94, label %even i8 95, label %odd i8 96, label %even i8 97, label %odd i8 98, label %even i8 99, label %odd i8 100, label %even i8 101, label %odd i8 102, label %even i8 103, label %odd i8 104, label %even i8 105, label %odd i8 106, label %even i8 107, label %odd i8 108, label %even i8 109, label %odd i8 110, label %even i8 111, label %odd i8 112, label %even i8 113, label %odd i8 114, label %even i8 115, label %odd i8 116, label %even i8 117, label %odd i8 118, label %even i8 119, label %odd i8 120, label %even i8 121, label %odd i8 122, label %even i8 123, label %odd i8 124, label %even i8 125, label %odd i8 126, label %even i8 127, label %odd ]

even:
  ret i8 0

odd:
  ret i8 1

never:
  unreachable
}

define void @empty(i64 %x) {
entry:
  switch i64 %x, label %done [
  ]

done:
  ret void
}

define i64 @commented(i64 %x) {
entry:
  switch i64 %x, label %d [ ; table start
    i64 9223372036854775807, label %a ; max
    ; nothing here
    i64 -9223372036854775808, label %a ; min
    i64 0, label %d
  ]

a:
  ret i64 1

d:
  ret i64 0
}
