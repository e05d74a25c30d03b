// Every module that needs the operating system reaches it through this one, so a build elsewhere
// stops here, with one message.
#if !os(Linux)
#error("notifytop builds on Linux only")
#endif
