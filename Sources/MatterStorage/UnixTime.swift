#if canImport(Glibc)
    import Glibc
#endif

/// The wall-clock time in whole seconds since 1970-01-01 UTC: the default creation and commissioning
/// times of stored records.
@usableFromInline
func currentUnixTime() -> Int64 { Int64(time(nil)) }
