
µ/device:GPU:0cCtream #13(Compute)•š—ìãŸçË"Øü<¸"*	jit_etoch" "È«=è"*	jit_epoch" PBStream #14(Compute)ý¡—ìãŸçË"èÐ"*	jit_epoch" PStream #15(MemcpyD2H)P"fusion_a"fusion_b"fusion_c*
hlo_module*
program_id