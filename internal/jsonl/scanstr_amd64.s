//go:build amd64 && !purego

#include "textflag.h"

// Low- and high-nibble classes of the two-byte escapes (" \\ / b f n r t),
// each table twice for the two lanes of VPSHUFB; 0x0f bytes; then the
// bytes the scan broadcasts: '"', '\\', 0x1f.
DATA nibbles<>+0x00(SB)/8, $0x00040008000d0000 // lo: 2 ", b, r; 4 t; 6 f
DATA nibbles<>+0x08(SB)/8, $0x0104000200000000 // lo: c \\; e n; f /
DATA nibbles<>+0x10(SB)/8, $0x00040008000d0000
DATA nibbles<>+0x18(SB)/8, $0x0104000200000000
DATA nibbles<>+0x20(SB)/8, $0x0804020000010000 // hi: 2, 5, 6, 7
DATA nibbles<>+0x28(SB)/8, $0x0000000000000000
DATA nibbles<>+0x30(SB)/8, $0x0804020000010000
DATA nibbles<>+0x38(SB)/8, $0x0000000000000000
DATA nibbles<>+0x40(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x48(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x50(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x58(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x60(SB)/1, $0x22
DATA nibbles<>+0x61(SB)/1, $0x5c
DATA nibbles<>+0x62(SB)/1, $0x1f
GLOBL nibbles<>(SB), RODATA|NOPTR, $104

// func scanStrAVX2(b []byte, i int) (k, r int)
//
// Scans the body of a JSON string from b[i] (b[i] is not escaped by a
// backslash before it; len(b) >= 64), 64 bytes a step, with AVX2 and BMI.
// Each step makes bit masks of the quotes (R8), backslashes (R9) and bytes
// below 0x20 (R10) of 64 bytes; a step holding none of them costs one
// VPTEST. Otherwise the bytes escaped by a backslash are marked with the
// carry-propagating addition of simdjson (in a run of backslashes every
// second one escapes the next byte, counted from the run's first), the
// first unescaped quote ends the string, a control byte before it makes the
// string invalid, and each escaped byte before it must be one of " \ / b f
// n r t (checked by nibbles with VPSHUFB), else it is handed back. Whether
// a run escapes the first byte of the next step is carried into that step
// (R13, simdjson's prev_escaped), so that the next step's position never
// waits on this one's masks: it is always 64 bytes on, and the steps' loads
// and comparisons overlap (the loop took a fifth more time when such a run
// made the next step start at its last backslash instead). A step whose
// first byte is escaped checks that byte's escape as any other. Fewer than
// 64 bytes left: one step over the last 64 bytes of b, its masks shifted to
// start at i.
//
// r&1 is set when an escape was passed; r>>1 says what k is:
//
//	0: the string ends at k (just past its closing quote)
//	1: the string is invalid at k (a control byte, or no closing quote)
//	2: b[k] is a backslash whose escape is not a two-byte one (\u, or
//	   invalid): the caller checks it (skipEscape) and resumes after it
TEXT ·scanStrAVX2(SB), NOSPLIT, $0-48
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ i+24(FP), DI
	VPBROADCASTB nibbles<>+0x60(SB), Y0 // '"'
	VPBROADCASTB nibbles<>+0x61(SB), Y1 // '\\'
	VPBROADCASTB nibbles<>+0x62(SB), Y2 // 0x1f: x <= 0x1f is min(x, 0x1f) == x
	XORL R12, R12       // 1 once an escape was passed
	XORL R13, R13       // 1: b[DI] is escaped by a backslash of the step before

loop:
	MOVQ BX, AX
	SUBQ DI, AX
	CMPQ AX, $64
	JLT  tail
	VMOVDQU  (SI)(DI*1), Y3
	VMOVDQU  32(SI)(DI*1), Y4
	VPCMPEQB Y0, Y3, Y5
	VPCMPEQB Y1, Y3, Y6
	VPMINUB  Y2, Y3, Y7
	VPCMPEQB Y3, Y7, Y7
	VPCMPEQB Y0, Y4, Y8
	VPCMPEQB Y1, Y4, Y9
	VPMINUB  Y2, Y4, Y10
	VPCMPEQB Y4, Y10, Y10
	VPOR     Y5, Y6, Y11
	VPOR     Y7, Y11, Y11
	VPOR     Y8, Y11, Y11
	VPOR     Y9, Y11, Y11
	VPOR     Y10, Y11, Y11
	VPTEST   Y11, Y11
	JNZ      masks
	TESTQ    R13, R13 // b[DI] escaped: its escape is checked by the masks' steps
	JNZ      masks
	ADDQ     $64, DI
	JMP      loop

masks:
	VPMOVMSKB Y5, R8
	VPMOVMSKB Y8, AX
	SHLQ      $32, AX
	ORQ       AX, R8 // quotes
	VPMOVMSKB Y6, R9
	VPMOVMSKB Y9, AX
	SHLQ      $32, AX
	ORQ       AX, R9 // backslashes
	VPMOVMSKB Y7, R10
	VPMOVMSKB Y10, AX
	SHLQ      $32, AX
	ORQ       AX, R10 // control bytes
	XORL      R11, R11 // not the last step (else: the shift of its window)

step:
	// R8, R9, R10: masks, bit j for b[DI+j]; R11: 0, or in the last step
	// the shift of its window (1-63). Y3, Y4: the window.
	MOVQ  R9, AX
	ORQ   R13, AX
	JNZ   escapes
	TZCNTQ R8, CX   // the closing quote (64: none)
	TZCNTQ R10, DX  // the first control byte (64: none)
	CMPQ   DX, CX
	JCS    badctl
	CMPQ   CX, $64
	JCS    end
	TESTQ  R11, R11
	JNZ    unterminated
	ADDQ   $64, DI
	JMP    loop

escapes:
	// With prev (R13) whether b[DI] is escaped (simdjson's find_escaped):
	// bs &^= prev; follows = bs<<1 | prev; oddStarts = bs &^ even &^
	// follows; sum, over = oddStarts + bs; escaped = (even ^ sum<<1) &
	// follows; over is the next step's prev.
	ANDNQ R9, R13, R9 // a backslash escaped from the step before starts nothing
	MOVQ  R9, CX
	SHLQ  $1, CX
	ORQ   R13, CX // follows
	MOVQ  $0xaaaaaaaaaaaaaaaa, AX
	ANDQ  R9, AX
	ANDNQ AX, CX, AX // oddStarts
	ADDQ  R9, AX // sum
	SETCS DL     // over
	MOVBQZX DL, R13
	SHLQ  $1, AX
	MOVQ  $0x5555555555555555, DX
	XORQ  DX, AX
	ANDQ  CX, AX // escaped
	MOVQ  AX, CX
	NOTQ  CX
	ANDQ  R8, CX  // unescaped quotes
	TZCNTQ CX, CX // the closing quote (64: none)
	TZCNTQ R10, R9 // the first control byte (64: none)
	CMPQ   R9, CX
	JCS    badctl2
	CMPQ   CX, $64
	JCS    checkesc
	TESTQ  R11, R11     // the last step and no closing quote:
	JNZ    unterminated // nothing more to check

checkesc:
	BZHIQ  CX, AX, R8 // escaped bytes before the closing quote
	TESTQ  R8, R8
	JZ     escdone
	MOVL   $1, R12

	// Bytes that are not " \ / b f n r t, by nibbles: a byte is one of them
	// iff lo[its low nibble] & hi[its high nibble] != 0.
	VMOVDQU  nibbles<>+0(SB), Y13
	VMOVDQU  nibbles<>+32(SB), Y14
	VMOVDQU  nibbles<>+64(SB), Y15
	VPXOR    Y12, Y12, Y12
	VPAND    Y15, Y3, Y5
	VPSRLW   $4, Y3, Y6
	VPAND    Y15, Y6, Y6
	VPSHUFB  Y5, Y13, Y5
	VPSHUFB  Y6, Y14, Y6
	VPAND    Y5, Y6, Y5
	VPCMPEQB Y12, Y5, Y5
	VPAND    Y15, Y4, Y7
	VPSRLW   $4, Y4, Y8
	VPAND    Y15, Y8, Y8
	VPSHUFB  Y7, Y13, Y7
	VPSHUFB  Y8, Y14, Y8
	VPAND    Y7, Y8, Y7
	VPCMPEQB Y12, Y7, Y7
	VPMOVMSKB Y5, R9
	VPMOVMSKB Y7, AX
	SHLQ     $32, AX
	ORQ      AX, R9
	SHRXQ    R11, R9, R9 // the last step's window starts R11 bytes before DI
	ANDQ     R9, R8
	JZ       escdone
	TZCNTQ   R8, R9
	ADDQ     DI, R9
	JMP      escother

escdone:
	CMPQ  CX, $64
	JCS   end
	ADDQ  $64, DI // R13: whether the next step's first byte is escaped
	JMP   loop

tail:
	// AX = len(b) - DI, below 64: the last 64 bytes of b, shifted.
	TESTQ AX, AX
	JLE   unterminated
	MOVQ  $64, CX
	SUBQ  AX, CX // bytes of the window before DI
	LEAQ  -64(SI)(BX*1), DX
	VMOVDQU  (DX), Y3
	VMOVDQU  32(DX), Y4
	VPCMPEQB Y0, Y3, Y5
	VPCMPEQB Y0, Y4, Y8
	VPMOVMSKB Y5, R8
	VPMOVMSKB Y8, AX
	SHLQ      $32, AX
	ORQ       AX, R8
	VPCMPEQB Y1, Y3, Y6
	VPCMPEQB Y1, Y4, Y9
	VPMOVMSKB Y6, R9
	VPMOVMSKB Y9, AX
	SHLQ      $32, AX
	ORQ       AX, R9
	VPMINUB  Y2, Y3, Y7
	VPCMPEQB Y3, Y7, Y7
	VPMINUB  Y2, Y4, Y10
	VPCMPEQB Y4, Y10, Y10
	VPMOVMSKB Y7, R10
	VPMOVMSKB Y10, AX
	SHLQ      $32, AX
	ORQ       AX, R10
	SHRQ      CX, R8
	SHRQ      CX, R9
	SHRQ      CX, R10
	MOVQ      CX, R11
	JMP       step

end:
	LEAQ 1(DI)(CX*1), AX
	MOVQ AX, k+32(FP)
	MOVQ R12, r+40(FP)
	VZEROUPPER
	RET

badctl2:
	MOVQ R9, DX

badctl:
	ADDQ DI, DX
	MOVQ DX, k+32(FP)
	ORQ  $2, R12
	MOVQ R12, r+40(FP)
	VZEROUPPER
	RET

unterminated:
	MOVQ BX, k+32(FP)
	ORQ  $2, R12
	MOVQ R12, r+40(FP)
	VZEROUPPER
	RET

escother:
	DECQ R9
	MOVQ R9, k+32(FP)
	ORQ  $4, R12
	MOVQ R12, r+40(FP)
	VZEROUPPER
	RET
