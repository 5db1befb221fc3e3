; Stresses: quoted identifiers. Globals, locals, labels, types and comdats
; whose names need quotes: spaces, escaped quote (\22), escaped backslash
; (\5C), escaped newline (\0A), a leading \01 (no mangling prefix), raw UTF-8,
; names that look like numbers or keywords, and quoted names that equal
; an unquoted spelling (@"plain" is @plain).

$"comdat with space" = comdat any

%"struct.ns::T<int>" = type { i32, ptr }
%"type with \22quotes\22" = type { %"struct.ns::T<int>" }

@"a b\22" = global i32 1, align 4
@"back\5Cslash" = global i32 2, align 4
@"new\0Aline" = constant [2 x i8] c"x\00"
@"\01_mangled" = global i8 0
@"grüße" = global i16 3
@"123" = global i32 4
@"define" = global i32 5
@"with.comdat" = global i32 6, comdat($"comdat with space")
@plain = global i32 7

define i32 @"fn with spaces"(i32 %"x y", ptr %"\22arg\22") {
"entry block":
  %"sum z" = add i32 %"x y", 1
  %"1" = load i32, ptr @"a b\22", align 4
  %"%" = add i32 %"sum z", %"1"
  br label %"next\0Ablock"

"next\0Ablock":
  %"v.ü" = load i32, ptr @"plain", align 4
  %"r" = add i32 %"%", %"v.ü"
  store i32 %r, ptr %"\22arg\22", align 4
  ret i32 %r
}

define i32 @caller() {
entry:
  %slot = alloca i32, align 4
  %t = alloca %"type with \22quotes\22", align 8
  %f = getelementptr inbounds %"type with \22quotes\22", ptr %t, i64 0, i32 0, i32 1
  store ptr null, ptr %f, align 8
  %c = call i32 @"fn with spaces"(i32 2, ptr %slot)
  %g = load i32, ptr @"123", align 4
  %h = load i32, ptr @"define", align 4
  %s = add i32 %c, %g
  %s2 = add i32 %s, %h
  ret i32 %s2
}
