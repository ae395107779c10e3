/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host OpenGL for the GL renderer's tests (gltest.h). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glib.h>

#include "gltest.h"

bool gltest_context(void)
{
    static const EGLint ctx_attr[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE,
    };
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_dpy = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
        eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay dpy;
    EGLContext ctx;

    dpy = get_dpy ? get_dpy(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                            NULL) : EGL_NO_DISPLAY;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_API)) {
        g_printerr("no EGL surfaceless display here\n");
        return false;
    }
    ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        g_printerr("no EGL surfaceless OpenGL 4.5 context here\n");
        return false;
    }
    return true;
}

static GLuint compile(GLenum type, const char *src)
{
    GLuint sh = glCreateShader(type);
    GLint ok;

    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096];

        glGetShaderInfoLog(sh, sizeof(log), NULL, log);
        g_error("%s\n%s", src, log);
    }
    return sh;
}

GLuint gltest_program(const char *vs, const char *fs)
{
    GLuint prog = glCreateProgram(), v = compile(GL_VERTEX_SHADER, vs);
    GLuint f = compile(GL_FRAGMENT_SHADER, fs);
    GLint ok;

    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glLinkProgram(prog);
    glDeleteShader(v);
    glDeleteShader(f);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096];

        glGetProgramInfoLog(prog, sizeof(log), NULL, log);
        g_error("link: %s", log);
    }
    return prog;
}
