; Stresses: a module with no entities at all: only comments and blank
; lines (an empty module is valid IR).


;; nothing else
   	
