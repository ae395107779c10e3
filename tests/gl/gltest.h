/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host OpenGL for the tests of the GL renderer's pieces: an OpenGL
 * 4.5 core context on EGL surfaceless, current on the calling thread
 * (llvmpipe where there is no GPU, as the tests' environment asks).
 */
#ifndef R500_GLTEST_H
#define R500_GLTEST_H

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdbool.h>

/* Make the context current; false when there is none here. */
bool gltest_context(void);
/* Compile and link; the test fails with the source and log if either does. */
GLuint gltest_program(const char *vs, const char *fs);

#endif
