using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Security.Cryptography;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// Seals page images with AES-256-GCM (docs/encryption.md). A stored page is
/// <code>
/// [0, P-48)     ciphertext of the payload
/// [P-48, P-32)  write session id (16 random bytes chosen when this cipher was created)
/// [P-32, P-20)  nonce: a 64-bit counter of this session (little-endian), then 4 zero bytes
/// [P-20, P-16)  page id (in clear, for error messages; the associated data binds the real one)
/// [P-16, P)     GCM tag
/// </code>
/// Every encryption uses a key of its own session, <c>HMAC-SHA256(master, "BLite page key v1" ||
/// session id)</c>, and the next value of that session's counter as its nonce. Within a session the
/// counter only grows, so a nonce never repeats under a session key; sessions differ by 128 random
/// bits, so two sessions share a key only with probability 2^-128 per pair. No state has to
/// survive a crash for this to hold, which a counter persisted in the file could not promise.
/// </summary>
internal sealed class PageCipher : IDisposable
{
    public const int TrailerSize = 48;
    public const int SessionIdSize = 16;
    public const int NonceSize = 12;
    public const int TagSize = 16;
    private const int SessionOffset = TrailerSize;
    private const int NonceOffset = 32;
    private const int PageIdOffset = 20;
    private const int MaxCachedSessions = 4096;

    private static ReadOnlySpan<byte> SessionKeyLabel => "BLite page key v1"u8;

    private static ReadOnlySpan<byte> MaskKeyLabel => "BLite wal mask v1"u8;

    private static ReadOnlySpan<byte> HeaderKeyLabel => "BLite header mac v2"u8;

    private static ReadOnlySpan<byte> LogHeaderLabel => "BLite log header v2"u8;

    private readonly byte[] _masterKey;
    private readonly byte[] _maskKey = new byte[32];
    private readonly byte[] _headerKey = new byte[32];
    private readonly ConcurrentDictionary<UInt128, SessionKey> _sessions = new();
    private readonly UInt128 _sessionId;
    private readonly SessionKey _current;
    private long _counter;

    public PageCipher(byte[] masterKey, ulong databaseId)
    {
        _masterKey = masterKey;
        DatabaseId = databaseId;
        HMACSHA256.HashData(masterKey, MaskKeyLabel, _maskKey);
        HMACSHA256.HashData(masterKey, HeaderKeyLabel, _headerKey);
        Span<byte> session = stackalloc byte[SessionIdSize];
        RandomNumberGenerator.Fill(session);
        _sessionId = BinaryPrimitives.ReadUInt128LittleEndian(session);
        _current = GetSession(_sessionId);
    }

    public ulong DatabaseId { get; }

    /// <summary>Called with every nonce this cipher uses (tests record them to check uniqueness).</summary>
    internal Action<UInt128, long>? NonceObserver { get; set; }

    public static int PayloadSize(int pageSize) => pageSize - TrailerSize;

    /// <summary>
    /// Encrypts the payload of <paramref name="plain"/> into <paramref name="stored"/> (same length).
    /// The plain image's bytes between the payload and its own 8-byte trailer must be zero: they are
    /// not stored, and reading the page back yields zeros there.
    /// </summary>
    public void Encrypt(ReadOnlySpan<byte> plain, Span<byte> stored, uint pageId, ReadOnlySpan<byte> associatedData)
    {
        var payload = plain.Length - TrailerSize;
        if (plain[payload..^PageLayout.TrailerSize].ContainsAnyExcept((byte)0))
        {
            throw new InvalidOperationException($"Page {pageId} holds data past its encrypted payload ({payload} bytes).");
        }

        var counter = Interlocked.Increment(ref _counter);
        var trailer = stored[payload..];
        BinaryPrimitives.WriteUInt128LittleEndian(trailer, _sessionId);
        var nonce = trailer.Slice(SessionIdSize, NonceSize);
        nonce.Clear();
        BinaryPrimitives.WriteInt64LittleEndian(nonce, counter);
        BinaryPrimitives.WriteUInt32LittleEndian(stored[^PageIdOffset..], pageId);
        NonceObserver?.Invoke(_sessionId, counter);
        var aes = _current.Rent();
        try
        {
            aes.Encrypt(nonce, plain[..payload], stored[..payload], stored[^TagSize..], associatedData);
        }
        finally
        {
            _current.Return(aes);
        }
    }

    /// <summary>
    /// Decrypts <paramref name="stored"/> into <paramref name="plain"/> and seals it with the plain
    /// trailer (page id, CRC) the engine checks. When authentication fails, <paramref name="plain"/>
    /// holds zeros and a trailer that fails that check, and false is returned.
    /// </summary>
    public bool TryDecrypt(ReadOnlySpan<byte> stored, Span<byte> plain, uint pageId, ReadOnlySpan<byte> associatedData)
    {
        var payload = stored.Length - TrailerSize;
        var trailer = stored[payload..];
        var session = GetSession(BinaryPrimitives.ReadUInt128LittleEndian(trailer));
        var aes = session.Rent();
        var authentic = true;
        try
        {
            aes.Decrypt(trailer.Slice(SessionIdSize, NonceSize), stored[..payload], stored[^TagSize..], plain[..payload], associatedData);
        }
        catch (AuthenticationTagMismatchException)
        {
            authentic = false;
        }
        finally
        {
            session.Return(aes);
        }

        if (!authentic)
        {
            Refuse(plain, pageId);
            return false;
        }

        plain[payload..].Clear();
        PageLayout.Seal(plain, pageId);
        return true;
    }

    /// <summary>Fills <paramref name="plain"/> with zeros and a trailer that fails the engine's check: what a refused page reads as.</summary>
    public static void Refuse(Span<byte> plain, uint pageId)
    {
        plain.Clear();
        PageLayout.Seal(plain, pageId);
        plain[^1] ^= 0xFF;
    }

    /// <summary>A 4-byte mask of a WAL frame's chained checksum, unpredictable without the key.</summary>
    public uint ChecksumMask(ReadOnlySpan<byte> place)
    {
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(_maskKey, place, mac);
        return BinaryPrimitives.ReadUInt32LittleEndian(mac);
    }

    /// <summary>The MAC of a version record: the clear header it belongs to, then the record's fields.</summary>
    public void HeaderMac(ReadOnlySpan<byte> clearHeader, ReadOnlySpan<byte> record, Span<byte> mac)
    {
        using var hmac = IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, _headerKey);
        hmac.AppendData(clearHeader);
        hmac.AppendData(record);
        hmac.GetHashAndReset(mac);
    }

    /// <summary>
    /// A 4-byte MAC binding a log header (its bytes [0, 32)) to the checkpoint counter of the file
    /// state the log continues, so a log started beside another version of the file is told apart.
    /// </summary>
    public uint LogHeaderTag(ReadOnlySpan<byte> header, long sealingCounter)
    {
        Span<byte> input = stackalloc byte[LogHeaderLabel.Length + 32 + 8];
        LogHeaderLabel.CopyTo(input);
        header[..32].CopyTo(input[LogHeaderLabel.Length..]);
        BinaryPrimitives.WriteInt64LittleEndian(input[(LogHeaderLabel.Length + 32)..], sealingCounter);
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(_headerKey, input, mac);
        return BinaryPrimitives.ReadUInt32LittleEndian(mac);
    }

    /// <summary>The first 8 bytes of the GCM tag of a stored page image: what the version map records for it.</summary>
    public static ulong TagOf(ReadOnlySpan<byte> stored) => BinaryPrimitives.ReadUInt64LittleEndian(stored[^TagSize..]);

    public void Dispose()
    {
        foreach (var session in _sessions.Values)
        {
            session.Dispose();
        }

        _sessions.Clear();
        CryptographicOperations.ZeroMemory(_masterKey);
        CryptographicOperations.ZeroMemory(_maskKey);
        CryptographicOperations.ZeroMemory(_headerKey);
    }

    private SessionKey GetSession(UInt128 id)
    {
        if (_sessions.TryGetValue(id, out var cached))
        {
            return cached;
        }

        if (_sessions.Count >= MaxCachedSessions)
        {
            // Keys of old sessions are cheap to derive again; dropping them bounds the memory a
            // file written in many sessions costs. Instances in use are simply not pooled again.
            foreach (var stale in _sessions)
            {
                if (stale.Key != _sessionId && _sessions.TryRemove(stale.Key, out _))
                {
                    break;
                }
            }
        }

        Span<byte> input = stackalloc byte[SessionKeyLabel.Length + SessionIdSize];
        SessionKeyLabel.CopyTo(input);
        BinaryPrimitives.WriteUInt128LittleEndian(input[SessionKeyLabel.Length..], id);
        var key = new byte[32];
        HMACSHA256.HashData(_masterKey, input, key);
        return _sessions.GetOrAdd(id, static (_, key) => new SessionKey(key), key);
    }

    /// <summary>One session's key; <see cref="AesGcm"/> instances are not shared between threads, so each caller rents one.</summary>
    private sealed class SessionKey(byte[] key) : IDisposable
    {
        private readonly ConcurrentBag<AesGcm> _pool = [];

        public AesGcm Rent() => _pool.TryTake(out var aes) ? aes : new AesGcm(key, TagSize);

        public void Return(AesGcm aes)
        {
            if (_pool.Count < Environment.ProcessorCount * 2)
            {
                _pool.Add(aes);
            }
            else
            {
                aes.Dispose();
            }
        }

        public void Dispose()
        {
            while (_pool.TryTake(out var aes))
            {
                aes.Dispose();
            }

            CryptographicOperations.ZeroMemory(key);
        }
    }
}
