// wm_close: presses an X11 window's close button the way a window manager does,
// by sending it WM_PROTOCOLS / WM_DELETE_WINDOW (ICCCM 4.2.8.1), so end-to-end
// tests can check what an app does when its window is closed under Xvfb (which
// has no window manager and so no title bar to click).
//
//   wm_close WINDOW_NAME_SUBSTRING [--after SECONDS] [--timeout SECONDS]
//
// It waits (--timeout, default 30 s) for a viewable window whose WM_NAME contains
// the substring and that takes WM_DELETE_WINDOW, waits --after seconds more
// (default 0: time for the app to get somewhere), then sends the message.
// Exit codes: 0 sent, 1 X error, 2 bad usage, 3 no X display, 4 no such window
// in time, 7 the window went away before the message could be sent.
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

bool g_xError = false;
int rememberXError(Display*, XErrorEvent*) {
  g_xError = true;
  return 0;
}

bool takesDelete(Display* d, Window w, Atom deleteWindow) {
  Atom* protocols = nullptr;
  int count = 0;
  if (!XGetWMProtocols(d, w, &protocols, &count)) return false;
  bool found = false;
  for (int i = 0; i < count; ++i) found = found || protocols[i] == deleteWindow;
  XFree(protocols);
  return found;
}

bool named(Display* d, Window w, const std::string& part) {
  char* name = nullptr;
  if (!XFetchName(d, w, &name) || !name) return false;
  const bool match = std::string(name).find(part) != std::string::npos;
  XFree(name);
  return match;
}

// Depth first under `w`: the first viewable window with the name that takes WM_DELETE_WINDOW.
Window find(Display* d, Window w, const std::string& part, Atom deleteWindow) {
  XWindowAttributes a;
  g_xError = false;
  if (XGetWindowAttributes(d, w, &a) && !g_xError && a.map_state == IsViewable && named(d, w, part) &&
      takesDelete(d, w, deleteWindow))
    return w;
  Window root = 0, parent = 0, *children = nullptr;
  unsigned n = 0;
  if (!XQueryTree(d, w, &root, &parent, &children, &n)) return 0;
  Window found = 0;
  for (unsigned i = 0; i < n && !found; ++i) found = find(d, children[i], part, deleteWindow);
  if (children) XFree(children);
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: wm_close WINDOW_NAME_SUBSTRING [--after SECONDS] [--timeout SECONDS]\n");
    return 2;
  }
  const std::string part = argv[1];
  double after = 0.0, timeout = 30.0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--after" || a == "--timeout") && i + 1 < argc) {
      char* end = nullptr;
      const double v = std::strtod(argv[++i], &end);
      if (*end || v < 0) {
        std::fprintf(stderr, "wm_close: %s needs a number of seconds, not '%s'\n", a.c_str(), argv[i]);
        return 2;
      }
      (a == "--after" ? after : timeout) = v;
    } else {
      std::fprintf(stderr, "wm_close: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  Display* d = XOpenDisplay(nullptr);
  if (!d) {
    std::fprintf(stderr, "wm_close: cannot open the X display\n");
    return 3;
  }
  XSetErrorHandler(rememberXError);
  const Atom protocols = XInternAtom(d, "WM_PROTOCOLS", False);
  const Atom deleteWindow = XInternAtom(d, "WM_DELETE_WINDOW", False);
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
  Window w = 0;
  while (!(w = find(d, DefaultRootWindow(d), part, deleteWindow))) {
    if (Clock::now() > deadline) {
      std::fprintf(stderr, "wm_close: no window named '%s' that takes WM_DELETE_WINDOW within %.0f s\n", part.c_str(),
                   timeout);
      return 4;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(after));
  XWindowAttributes a;
  g_xError = false;
  if (!XGetWindowAttributes(d, w, &a) || g_xError) {
    std::fprintf(stderr, "wm_close: the window went away\n");
    return 7;
  }
  XEvent e{};
  e.xclient.type = ClientMessage;
  e.xclient.window = w;
  e.xclient.message_type = protocols;
  e.xclient.format = 32;
  e.xclient.data.l[0] = static_cast<long>(deleteWindow);
  e.xclient.data.l[1] = CurrentTime;
  XSendEvent(d, w, False, NoEventMask, &e);
  XSync(d, False);
  if (g_xError) {
    std::fprintf(stderr, "wm_close: X error while sending WM_DELETE_WINDOW\n");
    return 1;
  }
  std::printf("sent WM_DELETE_WINDOW to window 0x%lx\n", static_cast<unsigned long>(w));
  XCloseDisplay(d);
  return 0;
}
