/// Opcodes of the Secure Channel protocol (0x0000).
public enum SecureChannelOpcode {
    public static let messageCounterSyncRequest: UInt8 = 0x00
    public static let messageCounterSyncResponse: UInt8 = 0x01
    public static let standaloneAck: UInt8 = 0x10
    public static let pbkdfParamRequest: UInt8 = 0x20
    public static let pbkdfParamResponse: UInt8 = 0x21
    public static let pake1: UInt8 = 0x22
    public static let pake2: UInt8 = 0x23
    public static let pake3: UInt8 = 0x24
    public static let sigma1: UInt8 = 0x30
    public static let sigma2: UInt8 = 0x31
    public static let sigma3: UInt8 = 0x32
    public static let sigma2Resume: UInt8 = 0x33
    public static let statusReport: UInt8 = 0x40
    public static let icdCheckIn: UInt8 = 0x50
}
