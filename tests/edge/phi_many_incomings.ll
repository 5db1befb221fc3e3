; Stresses: phi nodes with many incoming edges: a 200-way merge built from
; a chain of conditional branches, a phi listing the same predecessor
; block twice (allowed when the values agree, as with a switch that has
; two cases to the same block), phis with constant, poison and
; undef incomings, and several phis at the top of one block.

define i32 @merge(i32 %x) {
entry:
  br label %c0

c0:
  %t0 = icmp eq i32 %x, 0
  br i1 %t0, label %join, label %c1

c1:
  %t1 = icmp eq i32 %x, 1
  br i1 %t1, label %join, label %c2

c2:
  %t2 = icmp eq i32 %x, 2
  br i1 %t2, label %join, label %c3

c3:
  %t3 = icmp eq i32 %x, 3
  br i1 %t3, label %join, label %c4

c4:
  %t4 = icmp eq i32 %x, 4
  br i1 %t4, label %join, label %c5

c5:
  %t5 = icmp eq i32 %x, 5
  br i1 %t5, label %join, label %c6

c6:
  %t6 = icmp eq i32 %x, 6
  br i1 %t6, label %join, label %c7

c7:
  %t7 = icmp eq i32 %x, 7
  br i1 %t7, label %join, label %c8

c8:
  %t8 = icmp eq i32 %x, 8
  br i1 %t8, label %join, label %c9

c9:
  %t9 = icmp eq i32 %x, 9
  br i1 %t9, label %join, label %c10

c10:
  %t10 = icmp eq i32 %x, 10
  br i1 %t10, label %join, label %c11

c11:
  %t11 = icmp eq i32 %x, 11
  br i1 %t11, label %join, label %c12

c12:
  %t12 = icmp eq i32 %x, 12
  br i1 %t12, label %join, label %c13

c13:
  %t13 = icmp eq i32 %x, 13
  br i1 %t13, label %join, label %c14

c14:
  %t14 = icmp eq i32 %x, 14
  br i1 %t14, label %join, label %c15

c15:
  %t15 = icmp eq i32 %x, 15
  br i1 %t15, label %join, label %c16

c16:
  %t16 = icmp eq i32 %x, 16
  br i1 %t16, label %join, label %c17

c17:
  %t17 = icmp eq i32 %x, 17
  br i1 %t17, label %join, label %c18

c18:
  %t18 = icmp eq i32 %x, 18
  br i1 %t18, label %join, label %c19

c19:
  %t19 = icmp eq i32 %x, 19
  br i1 %t19, label %join, label %c20

c20:
  %t20 = icmp eq i32 %x, 20
  br i1 %t20, label %join, label %c21

c21:
  %t21 = icmp eq i32 %x, 21
  br i1 %t21, label %join, label %c22

c22:
  %t22 = icmp eq i32 %x, 22
  br i1 %t22, label %join, label %c23

c23:
  %t23 = icmp eq i32 %x, 23
  br i1 %t23, label %join, label %c24

c24:
  %t24 = icmp eq i32 %x, 24
  br i1 %t24, label %join, label %c25

c25:
  %t25 = icmp eq i32 %x, 25
  br i1 %t25, label %join, label %c26

c26:
  %t26 = icmp eq i32 %x, 26
  br i1 %t26, label %join, label %c27

c27:
  %t27 = icmp eq i32 %x, 27
  br i1 %t27, label %join, label %c28

c28:
  %t28 = icmp eq i32 %x, 28
  br i1 %t28, label %join, label %c29

c29:
  %t29 = icmp eq i32 %x, 29
  br i1 %t29, label %join, label %c30

c30:
  %t30 = icmp eq i32 %x, 30
  br i1 %t30, label %join, label %c31

c31:
  %t31 = icmp eq i32 %x, 31
  br i1 %t31, label %join, label %c32

c32:
  %t32 = icmp eq i32 %x, 32
  br i1 %t32, label %join, label %c33

c33:
  %t33 = icmp eq i32 %x, 33
  br i1 %t33, label %join, label %c34

c34:
  %t34 = icmp eq i32 %x, 34
  br i1 %t34, label %join, label %c35

c35:
  %t35 = icmp eq i32 %x, 35
  br i1 %t35, label %join, label %c36

c36:
  %t36 = icmp eq i32 %x, 36
  br i1 %t36, label %join, label %c37

c37:
  %t37 = icmp eq i32 %x, 37
  br i1 %t37, label %join, label %c38

c38:
  %t38 = icmp eq i32 %x, 38
  br i1 %t38, label %join, label %c39

c39:
  %t39 = icmp eq i32 %x, 39
  br i1 %t39, label %join, label %c40

c40:
  %t40 = icmp eq i32 %x, 40
  br i1 %t40, label %join, label %c41

c41:
  %t41 = icmp eq i32 %x, 41
  br i1 %t41, label %join, label %c42

c42:
  %t42 = icmp eq i32 %x, 42
  br i1 %t42, label %join, label %c43

c43:
  %t43 = icmp eq i32 %x, 43
  br i1 %t43, label %join, label %c44

c44:
  %t44 = icmp eq i32 %x, 44
  br i1 %t44, label %join, label %c45

c45:
  %t45 = icmp eq i32 %x, 45
  br i1 %t45, label %join, label %c46

c46:
  %t46 = icmp eq i32 %x, 46
  br i1 %t46, label %join, label %c47

c47:
  %t47 = icmp eq i32 %x, 47
  br i1 %t47, label %join, label %c48

c48:
  %t48 = icmp eq i32 %x, 48
  br i1 %t48, label %join, label %c49

c49:
  %t49 = icmp eq i32 %x, 49
  br i1 %t49, label %join, label %c50

c50:
  %t50 = icmp eq i32 %x, 50
  br i1 %t50, label %join, label %c51

c51:
  %t51 = icmp eq i32 %x, 51
  br i1 %t51, label %join, label %c52

c52:
  %t52 = icmp eq i32 %x, 52
  br i1 %t52, label %join, label %c53

c53:
  %t53 = icmp eq i32 %x, 53
  br i1 %t53, label %join, label %c54

c54:
  %t54 = icmp eq i32 %x, 54
  br i1 %t54, label %join, label %c55

c55:
  %t55 = icmp eq i32 %x, 55
  br i1 %t55, label %join, label %c56

c56:
  %t56 = icmp eq i32 %x, 56
  br i1 %t56, label %join, label %c57

c57:
  %t57 = icmp eq i32 %x, 57
  br i1 %t57, label %join, label %c58

c58:
  %t58 = icmp eq i32 %x, 58
  br i1 %t58, label %join, label %c59

c59:
  %t59 = icmp eq i32 %x, 59
  br i1 %t59, label %join, label %c60

c60:
  %t60 = icmp eq i32 %x, 60
  br i1 %t60, label %join, label %c61

c61:
  %t61 = icmp eq i32 %x, 61
  br i1 %t61, label %join, label %c62

c62:
  %t62 = icmp eq i32 %x, 62
  br i1 %t62, label %join, label %c63

c63:
  %t63 = icmp eq i32 %x, 63
  br i1 %t63, label %join, label %c64

c64:
  %t64 = icmp eq i32 %x, 64
  br i1 %t64, label %join, label %c65

c65:
  %t65 = icmp eq i32 %x, 65
  br i1 %t65, label %join, label %c66

c66:
  %t66 = icmp eq i32 %x, 66
  br i1 %t66, label %join, label %c67

c67:
  %t67 = icmp eq i32 %x, 67
  br i1 %t67, label %join, label %c68

c68:
  %t68 = icmp eq i32 %x, 68
  br i1 %t68, label %join, label %c69

c69:
  %t69 = icmp eq i32 %x, 69
  br i1 %t69, label %join, label %c70

c70:
  %t70 = icmp eq i32 %x, 70
  br i1 %t70, label %join, label %c71

c71:
  %t71 = icmp eq i32 %x, 71
  br i1 %t71, label %join, label %c72

c72:
  %t72 = icmp eq i32 %x, 72
  br i1 %t72, label %join, label %c73

c73:
  %t73 = icmp eq i32 %x, 73
  br i1 %t73, label %join, label %c74

c74:
  %t74 = icmp eq i32 %x, 74
  br i1 %t74, label %join, label %c75

c75:
  %t75 = icmp eq i32 %x, 75
  br i1 %t75, label %join, label %c76

c76:
  %t76 = icmp eq i32 %x, 76
  br i1 %t76, label %join, label %c77

c77:
  %t77 = icmp eq i32 %x, 77
  br i1 %t77, label %join, label %c78

c78:
  %t78 = icmp eq i32 %x, 78
  br i1 %t78, label %join, label %c79

c79:
  %t79 = icmp eq i32 %x, 79
  br i1 %t79, label %join, label %c80

c80:
  %t80 = icmp eq i32 %x, 80
  br i1 %t80, label %join, label %c81

c81:
  %t81 = icmp eq i32 %x, 81
  br i1 %t81, label %join, label %c82

c82:
  %t82 = icmp eq i32 %x, 82
  br i1 %t82, label %join, label %c83

c83:
  %t83 = icmp eq i32 %x, 83
  br i1 %t83, label %join, label %c84

c84:
  %t84 = icmp eq i32 %x, 84
  br i1 %t84, label %join, label %c85

c85:
  %t85 = icmp eq i32 %x, 85
  br i1 %t85, label %join, label %c86

c86:
  %t86 = icmp eq i32 %x, 86
  br i1 %t86, label %join, label %c87

c87:
  %t87 = icmp eq i32 %x, 87
  br i1 %t87, label %join, label %c88

c88:
  %t88 = icmp eq i32 %x, 88
  br i1 %t88, label %join, label %c89

c89:
  %t89 = icmp eq i32 %x, 89
  br i1 %t89, label %join, label %c90

c90:
  %t90 = icmp eq i32 %x, 90
  br i1 %t90, label %join, label %c91

c91:
  %t91 = icmp eq i32 %x, 91
  br i1 %t91, label %join, label %c92

c92:
  %t92 = icmp eq i32 %x, 92
  br i1 %t92, label %join, label %c93

c93:
  %t93 = icmp eq i32 %x, 93
  br i1 %t93, label %join, label %c94

c94:
  %t94 = icmp eq i32 %x, 94
  br i1 %t94, label %join, label %c95

c95:
  %t95 = icmp eq i32 %x, 95
  br i1 %t95, label %join, label %c96

c96:
  %t96 = icmp eq i32 %x, 96
  br i1 %t96, label %join, label %c97

c97:
  %t97 = icmp eq i32 %x, 97
  br i1 %t97, label %join, label %c98

c98:
  %t98 = icmp eq i32 %x, 98
  br i1 %t98, label %join, label %c99

c99:
  %t99 = icmp eq i32 %x, 99
  br i1 %t99, label %join, label %c100

c100:
  %t100 = icmp eq i32 %x, 100
  br i1 %t100, label %join, label %c101

c101:
  %t101 = icmp eq i32 %x, 101
  br i1 %t101, label %join, label %c102

c102:
  %t102 = icmp eq i32 %x, 102
  br i1 %t102, label %join, label %c103

c103:
  %t103 = icmp eq i32 %x, 103
  br i1 %t103, label %join, label %c104

c104:
  %t104 = icmp eq i32 %x, 104
  br i1 %t104, label %join, label %c105

c105:
  %t105 = icmp eq i32 %x, 105
  br i1 %t105, label %join, label %c106

c106:
  %t106 = icmp eq i32 %x, 106
  br i1 %t106, label %join, label %c107

c107:
  %t107 = icmp eq i32 %x, 107
  br i1 %t107, label %join, label %c108

c108:
  %t108 = icmp eq i32 %x, 108
  br i1 %t108, label %join, label %c109

c109:
  %t109 = icmp eq i32 %x, 109
  br i1 %t109, label %join, label %c110

c110:
  %t110 = icmp eq i32 %x, 110
  br i1 %t110, label %join, label %c111

c111:
  %t111 = icmp eq i32 %x, 111
  br i1 %t111, label %join, label %c112

c112:
  %t112 = icmp eq i32 %x, 112
  br i1 %t112, label %join, label %c113

c113:
  %t113 = icmp eq i32 %x, 113
  br i1 %t113, label %join, label %c114

c114:
  %t114 = icmp eq i32 %x, 114
  br i1 %t114, label %join, label %c115

c115:
  %t115 = icmp eq i32 %x, 115
  br i1 %t115, label %join, label %c116

c116:
  %t116 = icmp eq i32 %x, 116
  br i1 %t116, label %join, label %c117

c117:
  %t117 = icmp eq i32 %x, 117
  br i1 %t117, label %join, label %c118

c118:
  %t118 = icmp eq i32 %x, 118
  br i1 %t118, label %join, label %c119

c119:
  %t119 = icmp eq i32 %x, 119
  br i1 %t119, label %join, label %c120

c120:
  %t120 = icmp eq i32 %x, 120
  br i1 %t120, label %join, label %c121

c121:
  %t121 = icmp eq i32 %x, 121
  br i1 %t121, label %join, label %c122

c122:
  %t122 = icmp eq i32 %x, 122
  br i1 %t122, label %join, label %c123

c123:
  %t123 = icmp eq i32 %x, 123
  br i1 %t123, label %join, label %c124

c124:
  %t124 = icmp eq i32 %x, 124
  br i1 %t124, label %join, label %c125

c125:
  %t125 = icmp eq i32 %x, 125
  br i1 %t125, label %join, label %c126

c126:
  %t126 = icmp eq i32 %x, 126
  br i1 %t126, label %join, label %c127

c127:
  %t127 = icmp eq i32 %x, 127
  br i1 %t127, label %join, label %c128

c128:
  %t128 = icmp eq i32 %x, 128
  br i1 %t128, label %join, label %c129

c129:
  %t129 = icmp eq i32 %x, 129
  br i1 %t129, label %join, label %c130

c130:
  %t130 = icmp eq i32 %x, 130
  br i1 %t130, label %join, label %c131

c131:
  %t131 = icmp eq i32 %x, 131
  br i1 %t131, label %join, label %c132

c132:
  %t132 = icmp eq i32 %x, 132
  br i1 %t132, label %join, label %c133

c133:
  %t133 = icmp eq i32 %x, 133
  br i1 %t133, label %join, label %c134

c134:
  %t134 = icmp eq i32 %x, 134
  br i1 %t134, label %join, label %c135

c135:
  %t135 = icmp eq i32 %x, 135
  br i1 %t135, label %join, label %c136

c136:
  %t136 = icmp eq i32 %x, 136
  br i1 %t136, label %join, label %c137

c137:
  %t137 = icmp eq i32 %x, 137
  br i1 %t137, label %join, label %c138

c138:
  %t138 = icmp eq i32 %x, 138
  br i1 %t138, label %join, label %c139

c139:
  %t139 = icmp eq i32 %x, 139
  br i1 %t139, label %join, label %c140

c140:
  %t140 = icmp eq i32 %x, 140
  br i1 %t140, label %join, label %c141

c141:
  %t141 = icmp eq i32 %x, 141
  br i1 %t141, label %join, label %c142

c142:
  %t142 = icmp eq i32 %x, 142
  br i1 %t142, label %join, label %c143

c143:
  %t143 = icmp eq i32 %x, 143
  br i1 %t143, label %join, label %c144

c144:
  %t144 = icmp eq i32 %x, 144
  br i1 %t144, label %join, label %c145

c145:
  %t145 = icmp eq i32 %x, 145
  br i1 %t145, label %join, label %c146

c146:
  %t146 = icmp eq i32 %x, 146
  br i1 %t146, label %join, label %c147

c147:
  %t147 = icmp eq i32 %x, 147
  br i1 %t147, label %join, label %c148

c148:
  %t148 = icmp eq i32 %x, 148
  br i1 %t148, label %join, label %c149

c149:
  %t149 = icmp eq i32 %x, 149
  br i1 %t149, label %join, label %c150

c150:
  %t150 = icmp eq i32 %x, 150
  br i1 %t150, label %join, label %c151

c151:
  %t151 = icmp eq i32 %x, 151
  br i1 %t151, label %join, label %c152

c152:
  %t152 = icmp eq i32 %x, 152
  br i1 %t152, label %join, label %c153

c153:
  %t153 = icmp eq i32 %x, 153
  br i1 %t153, label %join, label %c154

c154:
  %t154 = icmp eq i32 %x, 154
  br i1 %t154, label %join, label %c155

c155:
  %t155 = icmp eq i32 %x, 155
  br i1 %t155, label %join, label %c156

c156:
  %t156 = icmp eq i32 %x, 156
  br i1 %t156, label %join, label %c157

c157:
  %t157 = icmp eq i32 %x, 157
  br i1 %t157, label %join, label %c158

c158:
  %t158 = icmp eq i32 %x, 158
  br i1 %t158, label %join, label %c159

c159:
  %t159 = icmp eq i32 %x, 159
  br i1 %t159, label %join, label %c160

c160:
  %t160 = icmp eq i32 %x, 160
  br i1 %t160, label %join, label %c161

c161:
  %t161 = icmp eq i32 %x, 161
  br i1 %t161, label %join, label %c162

c162:
  %t162 = icmp eq i32 %x, 162
  br i1 %t162, label %join, label %c163

c163:
  %t163 = icmp eq i32 %x, 163
  br i1 %t163, label %join, label %c164

c164:
  %t164 = icmp eq i32 %x, 164
  br i1 %t164, label %join, label %c165

c165:
  %t165 = icmp eq i32 %x, 165
  br i1 %t165, label %join, label %c166

c166:
  %t166 = icmp eq i32 %x, 166
  br i1 %t166, label %join, label %c167

c167:
  %t167 = icmp eq i32 %x, 167
  br i1 %t167, label %join, label %c168

c168:
  %t168 = icmp eq i32 %x, 168
  br i1 %t168, label %join, label %c169

c169:
  %t169 = icmp eq i32 %x, 169
  br i1 %t169, label %join, label %c170

c170:
  %t170 = icmp eq i32 %x, 170
  br i1 %t170, label %join, label %c171

c171:
  %t171 = icmp eq i32 %x, 171
  br i1 %t171, label %join, label %c172

c172:
  %t172 = icmp eq i32 %x, 172
  br i1 %t172, label %join, label %c173

c173:
  %t173 = icmp eq i32 %x, 173
  br i1 %t173, label %join, label %c174

c174:
  %t174 = icmp eq i32 %x, 174
  br i1 %t174, label %join, label %c175

c175:
  %t175 = icmp eq i32 %x, 175
  br i1 %t175, label %join, label %c176

c176:
  %t176 = icmp eq i32 %x, 176
  br i1 %t176, label %join, label %c177

c177:
  %t177 = icmp eq i32 %x, 177
  br i1 %t177, label %join, label %c178

c178:
  %t178 = icmp eq i32 %x, 178
  br i1 %t178, label %join, label %c179

c179:
  %t179 = icmp eq i32 %x, 179
  br i1 %t179, label %join, label %c180

c180:
  %t180 = icmp eq i32 %x, 180
  br i1 %t180, label %join, label %c181

c181:
  %t181 = icmp eq i32 %x, 181
  br i1 %t181, label %join, label %c182

c182:
  %t182 = icmp eq i32 %x, 182
  br i1 %t182, label %join, label %c183

c183:
  %t183 = icmp eq i32 %x, 183
  br i1 %t183, label %join, label %c184

c184:
  %t184 = icmp eq i32 %x, 184
  br i1 %t184, label %join, label %c185

c185:
  %t185 = icmp eq i32 %x, 185
  br i1 %t185, label %join, label %c186

c186:
  %t186 = icmp eq i32 %x, 186
  br i1 %t186, label %join, label %c187

c187:
  %t187 = icmp eq i32 %x, 187
  br i1 %t187, label %join, label %c188

c188:
  %t188 = icmp eq i32 %x, 188
  br i1 %t188, label %join, label %c189

c189:
  %t189 = icmp eq i32 %x, 189
  br i1 %t189, label %join, label %c190

c190:
  %t190 = icmp eq i32 %x, 190
  br i1 %t190, label %join, label %c191

c191:
  %t191 = icmp eq i32 %x, 191
  br i1 %t191, label %join, label %c192

c192:
  %t192 = icmp eq i32 %x, 192
  br i1 %t192, label %join, label %c193

c193:
  %t193 = icmp eq i32 %x, 193
  br i1 %t193, label %join, label %c194

c194:
  %t194 = icmp eq i32 %x, 194
  br i1 %t194, label %join, label %c195

c195:
  %t195 = icmp eq i32 %x, 195
  br i1 %t195, label %join, label %c196

c196:
  %t196 = icmp eq i32 %x, 196
  br i1 %t196, label %join, label %c197

c197:
  %t197 = icmp eq i32 %x, 197
  br i1 %t197, label %join, label %c198

c198:
  %t198 = icmp eq i32 %x, 198
  br i1 %t198, label %join, label %c199

c199:
  %t199 = icmp eq i32 %x, 199
  br label %join

join:
  %r = phi i32 [ 0, %c0 ], [ 3, %c1 ], [ 6, %c2 ], [ 9, %c3 ], [ 12, %c4 ], [ 15, %c5 ], [ 18, %c6 ], [ 21, %c7 ], [ 24, %c8 ], [ 27, %c9 ], [ 30, %c10 ], [ 33, %c11 ], [ 36, %c12 ], [ 39, %c13 ], [ 42, %c14 ], [ 45, %c15 ], [ 48, %c16 ], [ 51, %c17 ], [ 54, %c18 ], [ 57, %c19 ], [ 60, %c20 ], [ 63, %c21 ], [ 66, %c22 ], [ 69, %c23 ], [ 72, %c24 ], [ 75, %c25 ], [ 78, %c26 ], [ 81, %c27 ], [ 84, %c28 ], [ 87, %c29 ], [ 90, %c30 ], [ 93, %c31 ], [ 96, %c32 ], [ 99, %c33 ], [ 102, %c34 ], [ 105, %c35 ], [ 108, %c36 ], [ 111, %c37 ], [ 114, %c38 ], [ 117, %c39 ], [ 120, %c40 ], [ 123, %c41 ], [ 126, %c42 ], [ 129, %c43 ], [ 132, %c44 ], [ 135, %c45 ], [ 138, %c46 ], [ 141, %c47 ], [ 144, %c48 ], [ 147, %c49 ], [ 150, %c50 ], [ 153, %c51 ], [ 156, %c52 ], [ 159, %c53 ], [ 162, %c54 ], [ 165, %c55 ], [ 168, %c56 ], [ 171, %c57 ], [ 174, %c58 ], [ 177, %c59 ], [ 180, %c60 ], [ 183, %c61 ], [ 186, %c62 ], [ 189, %c63 ], [ 192, %c64 ], [ 195, %c65 ], [ 198, %c66 ], [ 201, %c67 ], [ 204, %c68 ], [ 207, %c69 ], [ 210, %c70 ], [ 213, %c71 ], [ 216, %c72 ], [ 219, %c73 ], [ 222, %c74 ], [ 225, %c75 ], [ 228, %c76 ], [ 231, %c77 ], [ 234, %c78 ], [ 237, %c79 ], [ 240, %c80 ], [ 243, %c81 ], [ 246, %c82 ], [ 249, %c83 ], [ 252, %c84 ], [ 255, %c85 ], [ 258, %c86 ], [ 261, %c87 ], [ 264, %c88 ], [ 267, %c89 ], [ 270, %c90 ], [ 273, %c91 ], [ 276, %c92 ], [ 279, %c93 ], [ 282, %c94 ], [ 285, %c95 ], [ 288, %c96 ], [ 291, %c97 ], [ 294, %c98 ], [ 297, %c99 ], [ 300, %c100 ], [ 303, %c101 ], [ 306, %c102 ], [ 309, %c103 ], [ 312, %c104 ], [ 315, %c105 ], [ 318, %c106 ], [ 321, %c107 ], [ 324, %c108 ], [ 327, %c109 ], [ 330, %c110 ], [ 333, %c111 ], [ 336, %c112 ], [ 339, %c113 ], [ 342, %c114 ], [ 345, %c115 ], [ 348, %c116 ], [ 351, %c117 ], [ 354, %c118 ], [ 357, %c119 ], [ 360, %c120 ], [ 363, %c121 ], [ 366, %c122 ], [ 369, %c123 ], [ 372, %c124 ], [ 375, %c125 ], [ 378, %c126 ], [ 381, %c127 ], [ 384, %c128 ], [ 387, %c129 ], [ 390, %c130 ], [ 393, %c131 ], [ 396, %c132 ], [ 399, %c133 ], [ 402, %c134 ], [ 405, %c135 ], [ 408, %c136 ], [ 411, %c137 ], [ 414, %c138 ], [ 417, %c139 ], [ 420, %c140 ], [ 423, %c141 ], [ 426, %c142 ], [ 429, %c143 ], [ 432, %c144 ], [ 435, %c145 ], [ 438, %c146 ], [ 441, %c147 ], [ 444, %c148 ], [ 447, %c149 ], [ 450, %c150 ], [ 453, %c151 ], [ 456, %c152 ], [ 459, %c153 ], [ 462, %c154 ], [ 465, %c155 ], [ 468, %c156 ], [ 471, %c157 ], [ 474, %c158 ], [ 477, %c159 ], [ 480, %c160 ], [ 483, %c161 ], [ 486, %c162 ], [ 489, %c163 ], [ 492, %c164 ], [ 495, %c165 ], [ 498, %c166 ], [ 501, %c167 ], [ 504, %c168 ], [ 507, %c169 ], [ 510, %c170 ], [ 513, %c171 ], [ 516, %c172 ], [ 519, %c173 ], [ 522, %c174 ], [ 525, %c175 ], [ 528, %c176 ], [ 531, %c177 ], [ 534, %c178 ], [ 537, %c179 ], [ 540, %c180 ], [ 543, %c181 ], [ 546, %c182 ], [ 549, %c183 ], [ 552, %c184 ], [ 555, %c185 ], [ 558, %c186 ], [ 561, %c187 ], [ 564, %c188 ], [ 567, %c189 ], [ 570, %c190 ], [ 573, %c191 ], [ 576, %c192 ], [ 579, %c193 ], [ 582, %c194 ], [ 585, %c195 ], [ 588, %c196 ], [ 591, %c197 ], [ 594, %c198 ], [ 597, %c199 ]
  %q = phi i32 [ %x, %c0 ], [ %x, %c1 ], [ %x, %c2 ], [ %x, %c3 ], [ %x, %c4 ], [ %x, %c5 ], [ %x, %c6 ], [ %x, %c7 ], [ %x, %c8 ], [ %x, %c9 ], [ %x, %c10 ], [ %x, %c11 ], [ %x, %c12 ], [ %x, %c13 ], [ %x, %c14 ], [ %x, %c15 ], [ %x, %c16 ], [ %x, %c17 ], [ %x, %c18 ], [ %x, %c19 ], [ %x, %c20 ], [ %x, %c21 ], [ %x, %c22 ], [ %x, %c23 ], [ %x, %c24 ], [ %x, %c25 ], [ %x, %c26 ], [ %x, %c27 ], [ %x, %c28 ], [ %x, %c29 ], [ %x, %c30 ], [ %x, %c31 ], [ %x, %c32 ], [ %x, %c33 ], [ %x, %c34 ], [ %x, %c35 ], [ %x, %c36 ], [ %x, %c37 ], [ %x, %c38 ], [ %x, %c39 ], [ %x, %c40 ], [ %x, %c41 ], [ %x, %c42 ], [ %x, %c43 ], [ %x, %c44 ], [ %x, %c45 ], [ %x, %c46 ], [ %x, %c47 ], [ %x, %c48 ], [ %x, %c49 ], [ %x, %c50 ], [ %x, %c51 ], [ %x, %c52 ], [ %x, %c53 ], [ %x, %c54 ], [ %x, %c55 ], [ %x, %c56 ], [ %x, %c57 ], [ %x, %c58 ], [ %x, %c59 ], [ %x, %c60 ], [ %x, %c61 ], [ %x, %c62 ], [ %x, %c63 ], [ %x, %c64 ], [ %x, %c65 ], [ %x, %c66 ], [ %x, %c67 ], [ %x, %c68 ], [ %x, %c69 ], [ %x, %c70 ], [ %x, %c71 ], [ %x, %c72 ], [ %x, %c73 ], [ %x, %c74 ], [ %x, %c75 ], [ %x, %c76 ], [ %x, %c77 ], [ %x, %c78 ], [ %x, %c79 ], [ %x, %c80 ], [ %x, %c81 ], [ %x, %c82 ], [ %x, %c83 ], [ %x, %c84 ], [ %x, %c85 ], [ %x, %c86 ], [ %x, %c87 ], [ %x, %c88 ], [ %x, %c89 ], [ %x, %c90 ], [ %x, %c91 ], [ %x, %c92 ], [ %x, %c93 ], [ %x, %c94 ], [ %x, %c95 ], [ %x, %c96 ], [ %x, %c97 ], [ %x, %c98 ], [ %x, %c99 ], [ %x, %c100 ], [ %x, %c101 ], [ %x, %c102 ], [ %x, %c103 ], [ %x, %c104 ], [ %x, %c105 ], [ %x, %c106 ], [ %x, %c107 ], [ %x, %c108 ], [ %x, %c109 ], [ %x, %c110 ], [ %x, %c111 ], [ %x, %c112 ], [ %x, %c113 ], [ %x, %c114 ], [ %x, %c115 ], [ %x, %c116 ], [ %x, %c117 ], [ %x, %c118 ], [ %x, %c119 ], [ %x, %c120 ], [ %x, %c121 ], [ %x, %c122 ], [ %x, %c123 ], [ %x, %c124 ], [ %x, %c125 ], [ %x, %c126 ], [ %x, %c127 ], [ %x, %c128 ], [ %x, %c129 ], [ %x, %c130 ], [ %x, %c131 ], [ %x, %c132 ], [ %x, %c133 ], [ %x, %c134 ], [ %x, %c135 ], [ %x, %c136 ], [ %x, %c137 ], [ %x, %c138 ], [ %x, %c139 ], [ %x, %c140 ], [ %x, %c141 ], [ %x, %c142 ], [ %x, %c143 ], [ %x, %c144 ], [ %x, %c145 ], [ %x, %c146 ], [ %x, %c147 ], [ %x, %c148 ], [ %x, %c149 ], [ %x, %c150 ], [ %x, %c151 ], [ %x, %c152 ], [ %x, %c153 ], [ %x, %c154 ], [ %x, %c155 ], [ %x, %c156 ], [ %x, %c157 ], [ %x, %c158 ], [ %x, %c159 ], [ %x, %c160 ], [ %x, %c161 ], [ %x, %c162 ], [ %x, %c163 ], [ %x, %c164 ], [ %x, %c165 ], [ %x, %c166 ], [ %x, %c167 ], [ %x, %c168 ], [ %x, %c169 ], [ %x, %c170 ], [ %x, %c171 ], [ %x, %c172 ], [ %x, %c173 ], [ %x, %c174 ], [ %x, %c175 ], [ %x, %c176 ], [ %x, %c177 ], [ %x, %c178 ], [ %x, %c179 ], [ %x, %c180 ], [ %x, %c181 ], [ %x, %c182 ], [ %x, %c183 ], [ %x, %c184 ], [ %x, %c185 ], [ %x, %c186 ], [ %x, %c187 ], [ %x, %c188 ], [ %x, %c189 ], [ %x, %c190 ], [ %x, %c191 ], [ %x, %c192 ], [ %x, %c193 ], [ %x, %c194 ], [ %x, %c195 ], [ %x, %c196 ], [ %x, %c197 ], [ %x, %c198 ], [ %x, %c199 ]
  %s = add i32 %r, %q
  ret i32 %s
}

define i32 @dup(i32 %x) {
entry:
  switch i32 %x, label %other [
    i32 1, label %j
    i32 2, label %j
  ]

other:
  br label %j

j:
  %v = phi i32 [ 7, %entry ], [ 7, %entry ], [ poison, %other ]
  %w = phi i32 [ undef, %entry ], [ undef, %entry ], [ %x, %other ]
  %u = phi ptr [ null, %entry ], [ null, %entry ], [ @dup, %other ]
  %s = add i32 %v, %w
  ret i32 %s
}
