#include "textflag.h"

// func pairAVX2(b []byte, c0, o0, c1, o1 byte) (idx, done int)
//
// Scans 32 positions a step while a 33-byte window fits: position i is a
// hit when b[i]|o0 == c0 and b[i+1]|o1 == c1. Returns the first hit (or -1)
// and the offset where the scan stopped (the caller does the tail).
TEXT ·pairAVX2(SB), NOSPLIT, $0-48
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVBLZX c0+24(FP), AX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVBLZX o0+25(FP), AX
	MOVQ AX, X4
	VPBROADCASTB X4, Y4
	MOVBLZX c1+26(FP), AX
	MOVQ AX, X1
	VPBROADCASTB X1, Y1
	MOVBLZX o1+27(FP), AX
	MOVQ AX, X5
	VPBROADCASTB X5, Y5
	XORQ DI, DI
	SUBQ $33, BX // last i with i+33 <= len
	JL   none

loop:
	CMPQ DI, BX
	JG   none
	VMOVDQU (SI)(DI*1), Y2
	VMOVDQU 1(SI)(DI*1), Y3
	VPOR    Y4, Y2, Y2
	VPOR    Y5, Y3, Y3
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y1, Y3, Y3
	VPAND   Y2, Y3, Y2
	VPMOVMSKB Y2, CX
	TESTL   CX, CX
	JNZ     found
	ADDQ    $32, DI
	JMP     loop

found:
	BSFL CX, CX
	ADDQ DI, CX
	MOVQ CX, idx+32(FP)
	MOVQ DI, done+40(FP)
	VZEROUPPER
	RET

none:
	MOVQ $-1, idx+32(FP)
	MOVQ DI, done+40(FP)
	VZEROUPPER
	RET
