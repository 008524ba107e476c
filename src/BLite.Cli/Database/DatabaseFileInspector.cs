using System.Buffers.Binary;
using System.Globalization;
using BLite.Cli.Commands;
using BLite.Core.Storage;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Encryption;
using BLite.Core.Storage.Paging;

namespace BLite.Cli.Database;

/// <summary>
/// Reads a database file's header and its WAL straight from disk, without opening the engine
/// (which would recover and checkpoint the WAL, hiding the state <c>info</c> reports). Layouts are
/// the documented ones (docs/format.md sections 2 and 3):
/// <code>
/// database page 0: 0 magic "BLiteDB\0" | 8 u32 version | 12 u32 page size | 16 u32 page count
///                  | 20 u32 free-list head | 24 u32 free pages | 32 u64 database id
/// WAL header (40): 0 magic "BLiteWAL" | 8 u32 version | 12 u32 page size | 16 u64 database id
///                  | 24 u32 generation | 28 u32 salt | 36 u32 CRC-32C of [0, 36)
/// WAL frame:       32-byte header (0 u32 page id | 4 u32 flags, bit 0 = commit | 8 u64 sequence
///                  | 16 u32 generation | 20 u32 salt | ...) then one page image
/// </code>
/// Frame checksums are not verified here; the engine verifies them when it opens the database.
/// </summary>
internal static class DatabaseFileInspector
{
    // Without a lock: a database an application holds open can still be inspected.
    private static FileDevice OpenForReading(string path)
    {
        try
        {
            return FileDevice.OpenReadOnly(path);
        }
        catch (UnauthorizedAccessException exception)
        {
            throw new CommandException($"cannot read '{path}': access denied ({exception.Message}).");
        }
    }

    private const int HeaderPrefixSize = 40;
    private const int WalHeaderSize = 40;
    private const int WalFrameHeaderSize = 32;

    private static ReadOnlySpan<byte> DatabaseMagic => "BLiteDB\0"u8;

    private static ReadOnlySpan<byte> WalMagic => "BLiteWAL"u8;

    /// <summary>Whether <paramref name="path"/> is an existing database without encryption (false for a missing, empty or foreign file).</summary>
    public static bool IsPlainDatabase(string path)
    {
        if (!File.Exists(path) || Directory.Exists(path))
        {
            return false;
        }

        Span<byte> magic = stackalloc byte[8];
        using var file = OpenForReading(path);
        return file.Read(0, magic) == magic.Length && magic.SequenceEqual(DatabaseMagic);
    }

    public static DatabaseFileInfo Inspect(string path)
    {
        DatabaseFiles.EnsureExists(path);
        var fullPath = Path.GetFullPath(path);
        Span<byte> header = stackalloc byte[EncryptionHeader.Size];
        long fileLength;
        using (var file = OpenForReading(fullPath))
        {
            fileLength = file.Length;
            var read = file.Read(0, header);
            if (EncryptionHeader.HasMagic(header[..read]))
            {
                return InspectEncrypted(path, fullPath, fileLength, header[..read]);
            }

            if (read < HeaderPrefixSize || !header[..8].SequenceEqual(DatabaseMagic))
            {
                throw new CommandException($"'{path}' is not a BLite database (its first bytes are not the BLite header).");
            }
        }

        var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        var databaseId = BinaryPrimitives.ReadUInt64LittleEndian(header[32..]);

        // Since format 2 page 0's count may lag pages a checkpoint copied in; the file's length has them.
        var pageCount = Math.Max(BinaryPrimitives.ReadUInt32LittleEndian(header[16..]), PageLayout.IsValidPageSize(pageSize) ? (uint)Math.Min(fileLength / pageSize, uint.MaxValue) : 0);
        return new DatabaseFileInfo(
            fullPath,
            fileLength,
            BinaryPrimitives.ReadUInt32LittleEndian(header[8..]),
            pageSize,
            pageCount,
            BinaryPrimitives.ReadUInt32LittleEndian(header[24..]),
            databaseId,
            InspectWal(fullPath + "-wal", databaseId, pageSize));
    }

    /// <summary>An encrypted database says only what its clear header says (docs/format.md section 6); the WAL's headers are clear too.</summary>
    private static DatabaseFileInfo InspectEncrypted(string path, string fullPath, long fileLength, ReadOnlySpan<byte> bytes)
    {
        var header = EncryptionHeader.TryRead(bytes)
            ?? throw new CommandException($"'{path}' is an encrypted BLite database whose clear header is damaged (it fails its checksum).");
        var keying = header.KeySource == EncryptionHeader.KeySourcePassword
            ? string.Create(CultureInfo.InvariantCulture, $"a password (PBKDF2-HMAC-SHA256, {header.Iterations:N0} iterations)")
            : "a 32-byte key";
        var pages = PageLayout.IsValidPageSize(header.PageSize) ? (uint)(new EncryptedLayout(header.PageSize).LogicalLength(fileLength) / header.PageSize) : 0;
        return new DatabaseFileInfo(
            fullPath,
            fileLength,
            header.Version,
            header.PageSize,
            pages,
            0,
            header.DatabaseId,
            InspectWal(fullPath + "-wal", header.DatabaseId, header.PageSize),
            $"AES-256-GCM under {keying}");
    }

    private static WalFileInfo InspectWal(string walPath, ulong expectedDatabaseId, int expectedPageSize)
    {
        if (!File.Exists(walPath))
        {
            return new WalFileInfo(walPath, Exists: false, Length: 0, HeaderValid: false, BelongsToDatabase: false, Frames: 0, Commits: 0, TrailingFrames: 0);
        }

        using var wal = OpenForReading(walPath);
        Span<byte> header = stackalloc byte[WalHeaderSize];
        if (wal.Read(0, header) < WalHeaderSize || !header[..8].SequenceEqual(WalMagic)
            || BinaryPrimitives.ReadUInt32LittleEndian(header[36..]) != Crc32C.Compute(header[..36]))
        {
            return new WalFileInfo(walPath, true, wal.Length, HeaderValid: false, BelongsToDatabase: false, 0, 0, 0);
        }

        var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        var databaseId = BinaryPrimitives.ReadUInt64LittleEndian(header[16..]);
        var generation = BinaryPrimitives.ReadUInt32LittleEndian(header[24..]);
        var salt = BinaryPrimitives.ReadUInt32LittleEndian(header[28..]);
        var belongs = databaseId == expectedDatabaseId && pageSize == expectedPageSize;
        if (!belongs || pageSize <= 0)
        {
            return new WalFileInfo(walPath, true, wal.Length, HeaderValid: true, BelongsToDatabase: belongs, 0, 0, 0);
        }

        // Frames of the current generation run from the header until the first frame of another
        // generation or salt (left over from an earlier, longer log) or the end of the file.
        Span<byte> frame = stackalloc byte[WalFrameHeaderSize];
        long frames = 0;
        long commits = 0;
        long sinceLastCommit = 0;
        var frameSize = (long)WalFrameHeaderSize + pageSize;
        for (var offset = (long)WalHeaderSize; offset + WalFrameHeaderSize <= wal.Length; offset += frameSize)
        {
            if (wal.Read(offset, frame) < frame.Length
                || BinaryPrimitives.ReadUInt32LittleEndian(frame[16..]) != generation || BinaryPrimitives.ReadUInt32LittleEndian(frame[20..]) != salt)
            {
                break;
            }

            // A record frame (flags bit 1, docs/format.md 3) is as long as its payload (flags bits 8-31), padded to 8, plus an 8-byte trailer.
            var flags = BinaryPrimitives.ReadUInt32LittleEndian(frame[4..]);
            frameSize = (flags & 2) != 0 ? WalFrameHeaderSize + ((((flags >> 8) + 7) & ~7u) + 8) : (long)WalFrameHeaderSize + pageSize;
            if (offset + frameSize > wal.Length)
            {
                break;
            }

            frames++;
            sinceLastCommit++;
            if ((BinaryPrimitives.ReadUInt32LittleEndian(frame[4..]) & 1) != 0)
            {
                commits++;
                sinceLastCommit = 0;
            }
        }

        return new WalFileInfo(walPath, true, wal.Length, HeaderValid: true, BelongsToDatabase: true, frames, commits, sinceLastCommit);
    }
}
