using System.Buffers.Binary;
using System.Security.Cryptography;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// The one page of an encrypted database that is not encrypted: the first P bytes of the file,
/// before the encrypted page array. It says what the file is and lets the right key be told from
/// a wrong one, and nothing else (docs/encryption.md). Bytes [0, 68) never change after creation;
/// the two <see cref="VersionRecord"/> slots at bytes 1024 and 2048 are MACed with the key.
/// <code>
/// offset  size  field
///  0      8     magic "BLiteENC"
///  8      4     encryption format version (2; format 1 had no version map)
/// 12      4     page size P
/// 16      8     database id (bound into every page's and frame's associated data)
/// 24      4     key source: 0 = a key (given or from a key provider), 1 = PBKDF2-HMAC-SHA256 password
/// 28      4     PBKDF2 iterations (0 for a key)
/// 32     16     salt (random at creation; PBKDF2 salt and key-check input)
/// 48     16     key check: HMAC-SHA256(key, "BLite key check v1" || database id || salt), first 16 bytes
/// 64      4     CRC-32C of bytes [0, 64)
/// 68      ...   zeros up to byte 1024
/// 1024  104     version record, slot 0
/// 2048  104     version record, slot 1 (zeros up to P around both)
/// </code>
/// </summary>
internal sealed class EncryptionHeader
{
    public const uint FormatVersion = 2;

    /// <summary>The first format, without a version map: refused (docs/encryption.md says how to move such a file on).</summary>
    public const uint UnversionedFormat = 1;
    public const int Size = 68;
    public const uint KeySourceKey = 0;
    public const uint KeySourcePassword = 1;

    public static ReadOnlySpan<byte> Magic => "BLiteENC"u8;

    private static ReadOnlySpan<byte> KeyCheckLabel => "BLite key check v1"u8;

    public uint Version { get; init; } = FormatVersion;

    public int PageSize { get; init; }

    public ulong DatabaseId { get; init; }

    public uint KeySource { get; init; }

    public int Iterations { get; init; }

    public byte[] Salt { get; init; } = new byte[16];

    public byte[] KeyCheck { get; set; } = new byte[16];

    public static bool HasMagic(ReadOnlySpan<byte> bytes) => bytes.Length >= 8 && bytes[..8].SequenceEqual(Magic);

    /// <summary>Parses the header; null when its checksum fails (the caller names the damage).</summary>
    public static EncryptionHeader? TryRead(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length < Size || !HasMagic(bytes)
            || BinaryPrimitives.ReadUInt32LittleEndian(bytes[64..]) != Crc32C.Compute(bytes[..64]))
        {
            return null;
        }

        return new EncryptionHeader
        {
            Version = BinaryPrimitives.ReadUInt32LittleEndian(bytes[8..]),
            PageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes[12..]),
            DatabaseId = BinaryPrimitives.ReadUInt64LittleEndian(bytes[16..]),
            KeySource = BinaryPrimitives.ReadUInt32LittleEndian(bytes[24..]),
            Iterations = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes[28..]),
            Salt = bytes.Slice(32, 16).ToArray(),
            KeyCheck = bytes.Slice(48, 16).ToArray(),
        };
    }

    public void Write(Span<byte> bytes)
    {
        bytes.Clear();
        Magic.CopyTo(bytes);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[8..], Version);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[12..], (uint)PageSize);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes[16..], DatabaseId);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[24..], KeySource);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[28..], (uint)Iterations);
        Salt.CopyTo(bytes[32..]);
        KeyCheck.CopyTo(bytes[48..]);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[64..], Crc32C.Compute(bytes[..64]));
    }

    /// <summary>The key check of <paramref name="key"/> for this database: a MAC of public values, so it reveals nothing about the key.</summary>
    public byte[] ComputeKeyCheck(ReadOnlySpan<byte> key)
    {
        Span<byte> input = stackalloc byte[KeyCheckLabel.Length + 8 + 16];
        KeyCheckLabel.CopyTo(input);
        BinaryPrimitives.WriteUInt64LittleEndian(input[KeyCheckLabel.Length..], DatabaseId);
        Salt.CopyTo(input[(KeyCheckLabel.Length + 8)..]);
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(key, input, mac);
        return mac[..16].ToArray();
    }

    public bool Accepts(ReadOnlySpan<byte> key) => CryptographicOperations.FixedTimeEquals(ComputeKeyCheck(key), KeyCheck);
}
