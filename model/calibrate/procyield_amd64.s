#include "textflag.h"

// func procyield30()
// Thirty PAUSE instructions, as the runtime's procyield(30) runs them in a
// Lock that spins.
TEXT ·procyield30(SB), NOSPLIT, $0-0
	MOVL	$30, AX
again:
	PAUSE
	SUBL	$1, AX
	JNZ	again
	RET
