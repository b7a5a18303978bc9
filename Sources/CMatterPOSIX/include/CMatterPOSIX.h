#ifndef CMATTERPOSIX_H
#define CMATTERPOSIX_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>

// CMSG_* are function-like macros, which Swift cannot call.
struct cmsghdr *CMatterPOSIX_CMSG_FIRSTHDR(const struct msghdr *mhdr);
struct cmsghdr *CMatterPOSIX_CMSG_NXTHDR(struct msghdr *mhdr, struct cmsghdr *cmsg);
const void *CMatterPOSIX_CMSG_DATA(const struct cmsghdr *cmsg);
size_t CMatterPOSIX_CMSG_SPACE(size_t payload);
size_t CMatterPOSIX_CMSG_LEN(size_t payload);

// glibc declares struct in6_pktinfo only under __USE_GNU, which Swift's Glibc module does not set
// (and defining _GNU_SOURCE here breaks the Glibc module map). Same layout, our own name.
typedef struct {
    struct in6_addr ipi6_addr;
    unsigned int ipi6_ifindex;
} CMatterPOSIX_in6_pktinfo;

// struct in_pktinfo (IP_PKTINFO's control message) likewise: the same layout.
typedef struct {
    int ipi_ifindex;
    struct in_addr ipi_spec_dst;
    struct in_addr ipi_addr;
} CMatterPOSIX_in_pktinfo;

// struct ucred (SO_PEERCRED's answer) is declared only under __USE_GNU too: the same layout.
typedef struct {
    int pid;
    unsigned int uid;
    unsigned int gid;
} CMatterPOSIX_ucred;

#endif
