#include "textflag.h"

// func procyield30()
// Thirty YIELD instructions, as the runtime's procyield(30) runs them in a
// Lock that spins.
TEXT ·procyield30(SB), NOSPLIT, $0-0
	MOVW	$30, R0
again:
	YIELD
	SUBW	$1, R0
	CBNZ	R0, again
	RET
