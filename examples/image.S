/* SPDX-License-Identifier: BSD-2-Clause */
/* image.S - links the file named by IMAGE_FILE in as the byte array
 * example_image[] (up to example_image_end), as firmware links a blob. */
	.section .rodata.example_image,"a"
	.balign 8
	.global example_image
example_image:
	.incbin IMAGE_FILE
	.global example_image_end
example_image_end:
	.section .note.GNU-stack,"",%progbits
