// xdnd_drop: drops files on an X11 window the way a file manager does, as an
// XDND drag source (https://freedesktop.org/wiki/Specifications/XDND), so
// end-to-end tests can check an app's drop handling under Xvfb.
//
//   xdnd_drop WINDOW_NAME_SUBSTRING FILE_URI [FILE_URI...] [--timeout SECONDS]
//
// It waits for a viewable, XDND-aware window whose WM_NAME or _NET_WM_NAME
// contains the substring, then: owns XdndSelection, sends XdndEnter (version 5,
// or the target's if lower; one type, text/uri-list), XdndPosition (the
// window's centre, action copy), waits for an accepting XdndStatus, sends
// XdndDrop, answers the target's SelectionRequest with the URI list
// ("URI\r\n" per file) and waits for XdndFinished. The pointer is not moved: the
// messages go straight to the window found (or its XdndProxy).
// FILE_URI may also be an absolute path; it is made a file:// URI.
//
// --timeout (default 30 s) bounds the whole run, the wait for the window included.
// Exit codes: 0 dropped, and the target finished successfully
//             1 X error or another failure
//             2 bad usage
//             3 no X display
//             4 timed out before a matching XDND-aware window appeared
//             5 the target refused (XdndStatus without accept, a failed
//               XdndFinished, or a request for a type not offered)
//             6 timed out during the exchange (no XdndStatus, no request for the
//               data, or no XdndFinished)
//             7 the target window went away during the exchange
// Progress goes to stderr, the outcome to stdout.
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

enum Exit : int {
  kDropped = 0,
  kFailure = 1,
  kUsage = 2,
  kNoDisplay = 3,
  kNoWindow = 4,
  kRefused = 5,
  kExchangeTimeout = 6,
  kWindowGone = 7,
};

constexpr long kOurXdndVersion = 5;

struct Finish {
  int code;
  std::string message;
};

void progress(const std::string& line) { std::fprintf(stderr, "xdnd_drop: %s\n", line.c_str()); }

// ---- command line ---------------------------------------------------------------

struct Options {
  std::string nameSubstring;
  std::vector<std::string> uris;
  double timeoutSeconds = 30.0;
};

const char* kUsageText =
    "usage: xdnd_drop WINDOW_NAME_SUBSTRING FILE_URI [FILE_URI...] [--timeout SECONDS]\n"
    "Drops the files on the first viewable XDND-aware window whose title contains\n"
    "the substring. FILE_URI: file:///path (percent-encoded) or an absolute path.\n"
    "Exit codes: 0 dropped, 1 error, 2 usage, 3 no display, 4 no window in time,\n"
    "5 refused by the target, 6 timed out during the exchange, 7 window went away.\n";

// An absolute path becomes file://<path>, bytes outside RFC 3986's unreserved
// set (and '/') percent-encoded.
std::string fileUri(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::strchr("-._~/", c)) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

std::optional<Options> parse(int argc, char** argv, std::string& error) {
  Options options;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--timeout") {
      if (i + 1 >= argc) {
        error = "--timeout needs a number of seconds";
        return std::nullopt;
      }
      char* end = nullptr;
      options.timeoutSeconds = std::strtod(argv[++i], &end);
      if (!end || *end || !(options.timeoutSeconds > 0)) {
        error = std::string("--timeout wants a positive number of seconds, not '") + argv[i] + "'";
        return std::nullopt;
      }
    } else if (arg == "--help" || arg == "-h") {
      error.clear();
      return std::nullopt;
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() < 2) {
    error = "need a window name substring and at least one file";
    return std::nullopt;
  }
  options.nameSubstring = positional[0];
  for (size_t i = 1; i < positional.size(); ++i) {
    const std::string& item = positional[i];
    if (item.rfind("file:", 0) == 0 || item.find("://") != std::string::npos) options.uris.push_back(item);
    else if (!item.empty() && item[0] == '/') options.uris.push_back(fileUri(item));
    else {
      error = "'" + item + "' is neither a URI nor an absolute path";
      return std::nullopt;
    }
  }
  return options;
}

// ---- X helpers ------------------------------------------------------------------

// Windows can vanish between XQueryTree and the next request; such errors are
// noted here instead of ending the program (Xlib's default handler exits).
int lastXError = 0;
int recordXError(Display*, XErrorEvent* event) {
  lastXError = event->error_code;
  return 0;
}

struct Atoms {
  Atom aware, proxy, enter, position, status, leave, drop, finished, selection, actionCopy, uriList, targets, utf8,
      netWmName, timestampProperty;
  explicit Atoms(Display* d)
      : aware(XInternAtom(d, "XdndAware", False)),
        proxy(XInternAtom(d, "XdndProxy", False)),
        enter(XInternAtom(d, "XdndEnter", False)),
        position(XInternAtom(d, "XdndPosition", False)),
        status(XInternAtom(d, "XdndStatus", False)),
        leave(XInternAtom(d, "XdndLeave", False)),
        drop(XInternAtom(d, "XdndDrop", False)),
        finished(XInternAtom(d, "XdndFinished", False)),
        selection(XInternAtom(d, "XdndSelection", False)),
        actionCopy(XInternAtom(d, "XdndActionCopy", False)),
        uriList(XInternAtom(d, "text/uri-list", False)),
        targets(XInternAtom(d, "TARGETS", False)),
        utf8(XInternAtom(d, "UTF8_STRING", False)),
        netWmName(XInternAtom(d, "_NET_WM_NAME", False)),
        timestampProperty(XInternAtom(d, "XDND_DROP_TIMESTAMP", False)) {}
};

// The first 32-bit item of a window property, if it has one of `type`.
std::optional<unsigned long> cardinalProperty(Display* d, Window w, Atom property, Atom type) {
  Atom actualType = None;
  int format = 0;
  unsigned long count = 0, after = 0;
  unsigned char* data = nullptr;
  std::optional<unsigned long> value;
  if (XGetWindowProperty(d, w, property, 0, 1, False, type, &actualType, &format, &count, &after, &data) == Success &&
      actualType == type && format == 32 && count == 1)
    value = reinterpret_cast<unsigned long*>(data)[0];
  if (data) XFree(data);
  return value;
}

std::string windowName(Display* d, Window w, const Atoms& atoms) {
  std::string name;
  Atom actualType = None;
  int format = 0;
  unsigned long count = 0, after = 0;
  unsigned char* data = nullptr;
  if (XGetWindowProperty(d, w, atoms.netWmName, 0, 1024, False, atoms.utf8, &actualType, &format, &count, &after,
                         &data) == Success &&
      data && format == 8)
    name.assign(reinterpret_cast<char*>(data), count);
  if (data) XFree(data);
  char* wmName = nullptr;
  if (XFetchName(d, w, &wmName) && wmName) {
    if (name.find(wmName) == std::string::npos) name += (name.empty() ? "" : " / ") + std::string(wmName);
    XFree(wmName);
  }
  return name;
}

struct Target {
  Window window = None;
  std::string name;
  long version = 0;
};

// Depth-first from the root, a few levels down (frames of a window manager,
// then the clients in them). `namedButNotAware` notes a match still lacking
// XdndAware or not yet mapped, for the timeout message.
std::optional<Target> findTarget(Display* d, Window w, const std::string& substring, const Atoms& atoms, int depth,
                                 std::string& namedButNotAware) {
  Window root = None, parent = None, *children = nullptr;
  unsigned int count = 0;
  if (!XQueryTree(d, w, &root, &parent, &children, &count)) return std::nullopt;
  std::optional<Target> found;
  // XQueryTree lists bottom to top: the topmost match wins.
  for (unsigned int i = count; i-- > 0 && !found;) {
    const Window child = children[i];
    const std::string name = windowName(d, child, atoms);
    if (!name.empty() && name.find(substring) != std::string::npos) {
      XWindowAttributes attributes;
      const bool viewable = XGetWindowAttributes(d, child, &attributes) && attributes.map_state == IsViewable;
      const auto version = cardinalProperty(d, child, atoms.aware, XA_ATOM);
      if (viewable && version) found = Target{child, name, static_cast<long>(*version)};
      else
        namedButNotAware = "'" + name + "'" + (viewable ? " has no XdndAware property" : " is not viewable");
    }
    if (!found && depth > 0) found = findTarget(d, child, substring, atoms, depth - 1, namedButNotAware);
  }
  if (children) XFree(children);
  return found;
}

// ---- the drag source --------------------------------------------------------------

class DragSource {
 public:
  DragSource(Display* d, const Options& options)
      : d_(d), atoms_(d), options_(options), deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                                           std::chrono::duration<double>(
                                                                               options.timeoutSeconds))) {
    for (const auto& uri : options.uris) uriList_ += uri + "\r\n";
  }

  Finish run() {
    const Window root = DefaultRootWindow(d_);
    source_ = XCreateSimpleWindow(d_, root, -10, -10, 1, 1, 0, 0, 0);
    XSelectInput(d_, source_, PropertyChangeMask);
    timestamp_ = serverTime();

    std::string notYet;
    std::optional<Target> target;
    while (!(target = findTarget(d_, root, options_.nameSubstring, atoms_, 3, notYet))) {
      if (Clock::now() >= deadline_)
        return {kNoWindow, "timed out after " + seconds() + " s: no viewable XDND-aware window named '*" +
                               options_.nameSubstring + "*'" + (notYet.empty() ? "" : " (" + notYet + ")")};
      pollFor(std::chrono::milliseconds(50));
    }
    target_ = target->window;
    lastXError = 0;  // windows that vanished during the search do not matter
    version_ = std::min(kOurXdndVersion, target->version);
    messageWindow_ = target_;
    // A proxy must name itself in its own XdndProxy property, or it is stale.
    if (auto proxy = cardinalProperty(d_, target_, atoms_.proxy, XA_WINDOW)) {
      const auto confirmed = cardinalProperty(d_, *proxy, atoms_.proxy, XA_WINDOW);
      if (confirmed && *confirmed == *proxy) messageWindow_ = *proxy;
    }
    XSelectInput(d_, target_, StructureNotifyMask);
    progress("target window 0x" + hex(target_) + " '" + target->name + "', XdndAware version " +
             std::to_string(target->version) + ", speaking version " + std::to_string(version_));
    if (version_ < 3) return {kRefused, "the target speaks XDND version " + std::to_string(version_) + " only"};

    XSetSelectionOwner(d_, atoms_.selection, source_, timestamp_);
    if (XGetSelectionOwner(d_, atoms_.selection) != source_) return {kFailure, "cannot own XdndSelection"};

    int x = 0, y = 0;
    if (!pointInside(x, y)) return {kWindowGone, "the target window went away before the drag entered it"};
    send(atoms_.enter, {static_cast<long>(source_), version_ << 24, static_cast<long>(atoms_.uriList), 0, 0});
    send(atoms_.position,
         {static_cast<long>(source_), 0, (static_cast<long>(x) << 16) | (y & 0xFFFF), static_cast<long>(timestamp_),
          static_cast<long>(atoms_.actionCopy)});
    if (lastXError) return {kWindowGone, "the target window went away (X error " + std::to_string(lastXError) + ")"};
    progress("sent XdndEnter and XdndPosition at (" + std::to_string(x) + ", " + std::to_string(y) + ")");

    std::optional<Finish> outcome = waitFor(atoms_.status, "an XdndStatus reply to XdndPosition");
    if (outcome) return leave(*outcome);
    if (!(lastMessage_.data.l[1] & 1)) return leave({kRefused, "the target does not accept the drop (XdndStatus)"});
    progress("target accepts (action " + atomName(lastMessage_.data.l[4]) + "); sending XdndDrop");

    send(atoms_.drop, {static_cast<long>(source_), 0, static_cast<long>(timestamp_), 0, 0});
    outcome = waitFor(atoms_.finished, "the target to ask for the data and send XdndFinished");
    if (outcome) return *outcome;
    if (requestsServed_ == 0) return {kRefused, "the target finished without asking for the data"};
    // XDND 5 puts "accepted" in bit 0 of data.l[1]; GLFW 3.3 puts the number of
    // bytes it read there, so any non-zero value counts as success.
    if (version_ >= 5 && lastMessage_.data.l[1] == 0)
      return {kRefused, "the target reports a failed drop (XdndFinished)"};
    return {kDropped, "dropped " + std::to_string(options_.uris.size()) + " file(s) on window 0x" + hex(target_) +
                          " '" + target->name + "'; the target took the data and finished"};
  }

 private:
  static std::string hex(unsigned long v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%lx", v);
    return buffer;
  }

  std::string seconds() const {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", options_.timeoutSeconds);
    return buffer;
  }

  std::string atomName(long atom) {
    if (atom == None) return "None";
    char* name = XGetAtomName(d_, static_cast<Atom>(atom));
    std::string result = name ? name : "?";
    if (name) XFree(name);
    return result;
  }

  void pollFor(std::chrono::milliseconds wait) {
    XFlush(d_);
    pollfd fd{ConnectionNumber(d_), POLLIN, 0};
    poll(&fd, 1, static_cast<int>(wait.count()));
  }

  // The next event before the deadline.
  bool nextEvent(XEvent& event) {
    for (;;) {
      if (XPending(d_)) {
        XNextEvent(d_, &event);
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
      if (left.count() <= 0) return false;
      pollFor(std::min(left, std::chrono::milliseconds(100)));
    }
  }

  // A server timestamp (ICCCM: never CurrentTime for selections), from the
  // PropertyNotify that appending nothing to a property of our window causes.
  Time serverTime() {
    XChangeProperty(d_, source_, atoms_.timestampProperty, XA_STRING, 8, PropModeAppend, nullptr, 0);
    XEvent event;
    while (nextEvent(event))
      if (event.type == PropertyNotify && event.xproperty.window == source_) return event.xproperty.time;
    return CurrentTime;
  }

  bool pointInside(int& x, int& y) {
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(d_, target_, &attributes)) return false;
    Window child = None;
    return XTranslateCoordinates(d_, target_, DefaultRootWindow(d_), attributes.width / 2, attributes.height / 2, &x,
                                 &y, &child);
  }

  void send(Atom type, std::initializer_list<long> data) {
    XEvent event{};
    event.xclient.type = ClientMessage;
    event.xclient.display = d_;
    event.xclient.window = target_;  // the target even when a proxy receives it
    event.xclient.message_type = type;
    event.xclient.format = 32;
    std::copy(data.begin(), data.end(), event.xclient.data.l);
    XSendEvent(d_, messageWindow_, False, NoEventMask, &event);
    XSync(d_, False);
  }

  Finish leave(const Finish& outcome) {
    send(atoms_.leave, {static_cast<long>(source_), 0, 0, 0, 0});
    return outcome;
  }

  // Serves selection requests and watches the target until a ClientMessage of
  // `type` arrives from it (then nullopt, the message in lastMessage_).
  std::optional<Finish> waitFor(Atom type, const std::string& what) {
    XEvent event;
    while (nextEvent(event)) {
      if (event.type == SelectionRequest) {
        if (auto refused = answer(event.xselectionrequest)) return refused;
      } else if (event.type == DestroyNotify && event.xdestroywindow.window == target_) {
        return Finish{kWindowGone, "the target window was destroyed while waiting for " + what};
      } else if (event.type == UnmapNotify && event.xunmap.window == target_) {
        return Finish{kWindowGone, "the target window was unmapped while waiting for " + what};
      } else if (event.type == ClientMessage && event.xclient.message_type == type &&
                 static_cast<Window>(event.xclient.data.l[0]) == target_) {
        lastMessage_ = event.xclient;
        return std::nullopt;
      }
    }
    return Finish{kExchangeTimeout, "timed out after " + seconds() + " s waiting for " + what};
  }

  // Answers a ConvertSelection of XdndSelection: the URI list for text/uri-list,
  // the offered types for TARGETS, a refusal for anything else.
  std::optional<Finish> answer(const XSelectionRequestEvent& request) {
    XSelectionEvent reply{};
    reply.type = SelectionNotify;
    reply.display = d_;
    reply.requestor = request.requestor;
    reply.selection = request.selection;
    reply.target = request.target;
    reply.time = request.time;
    // ICCCM: a None property (obsolete clients) means "use the target's name".
    reply.property = request.property == None ? request.target : request.property;
    std::optional<Finish> refused;
    if (request.selection != atoms_.selection) {
      reply.property = None;
    } else if (request.target == atoms_.uriList) {
      XChangeProperty(d_, request.requestor, reply.property, atoms_.uriList, 8, PropModeReplace,
                      reinterpret_cast<const unsigned char*>(uriList_.data()), static_cast<int>(uriList_.size()));
      ++requestsServed_;
      progress("sent " + std::to_string(uriList_.size()) + " bytes of text/uri-list to window 0x" +
               hex(request.requestor));
    } else if (request.target == atoms_.targets) {
      const Atom offered[] = {atoms_.targets, atoms_.uriList};
      XChangeProperty(d_, request.requestor, reply.property, XA_ATOM, 32, PropModeReplace,
                      reinterpret_cast<const unsigned char*>(offered), 2);
    } else {
      progress("refusing a request for type " + atomName(static_cast<long>(request.target)));
      reply.property = None;
      refused = Finish{kRefused, "the target asked for " + atomName(static_cast<long>(request.target)) +
                                     ", not the text/uri-list offered"};
    }
    XEvent event{};
    event.xselection = reply;
    XSendEvent(d_, request.requestor, False, NoEventMask, &event);
    XSync(d_, False);
    return refused;
  }

  Display* d_;
  Atoms atoms_;
  const Options& options_;
  Clock::time_point deadline_;
  std::string uriList_;
  Window source_ = None, target_ = None, messageWindow_ = None;
  long version_ = 0;
  Time timestamp_ = CurrentTime;
  XClientMessageEvent lastMessage_{};
  int requestsServed_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  const std::optional<Options> options = parse(argc, argv, error);
  if (!options) {
    if (!error.empty()) std::fprintf(stderr, "xdnd_drop: %s\n", error.c_str());
    std::fputs(kUsageText, error.empty() ? stdout : stderr);
    return error.empty() ? 0 : kUsage;
  }
  Display* display = XOpenDisplay(nullptr);
  if (!display) {
    const char* name = std::getenv("DISPLAY");
    std::fprintf(stderr, "xdnd_drop: cannot open X display '%s'\n", name ? name : "(DISPLAY not set)");
    return kNoDisplay;
  }
  XSetErrorHandler(recordXError);
  const Finish finish = DragSource(display, *options).run();
  // A target may still hold our XdndEnter/XdndPosition, and answer them to the
  // source window later. GLFW 3.3 dies on the BadWindow that follows when the
  // window is gone (Xlib's default error handler), so after a timeout the source
  // window outlives us, as it would in a file manager that is still running;
  // the server frees it when it resets.
  if (finish.code == kExchangeTimeout) XSetCloseDownMode(display, RetainTemporary);
  XCloseDisplay(display);
  std::fprintf(finish.code == kDropped ? stdout : stderr, "xdnd_drop: %s\n", finish.message.c_str());
  return finish.code;
}
