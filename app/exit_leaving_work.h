#pragma once
// Quitting while work still runs on other threads (issue 22: quitting during a
// sweep took 2.2-2.4 s to exit, the teardown waiting for the launch in flight, and
// the image lab's run or a split start's builds held it the same way). A kernel
// launch cannot be cancelled once enqueued, and the objects it reads and writes
// must outlive it, so tearing down means waiting for it. Once everything the user
// keeps is written (settings, the panels' places, recordings, the summary), the
// process ends instead without tearing down: the work dies with it and the system
// takes back its memory. Used only when such work is under way; otherwise the
// process ends normally, every object destroyed (and checked for leaks under the
// sanitizers).
namespace ks {

// Flushes the standard streams and ends the process with `code` at once: no
// destructors, no atexit handlers, threads stopped where they are.
[[noreturn]] void exitLeavingWorkRunning(int code);

}  // namespace ks
