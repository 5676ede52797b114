/* SPDX-License-Identifier: BSD-2-Clause */
/* count-images.S - the two Zephyr settings images count-divisions mounts
 * (same geometry, different histories): IMAGE_A and IMAGE_B. */
	.section .rodata.count_images,"a"
	.balign 8
	.global image_a
image_a:
	.incbin IMAGE_A
	.global image_b
image_b:
	.incbin IMAGE_B
	.global image_b_end
image_b_end:
	.section .note.GNU-stack,"",%progbits
