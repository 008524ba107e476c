using System.Buffers;
using System.Buffers.Binary;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// The database file of an encrypted database, seen by the engine as a plain page array: page n
/// is stored encrypted at byte <c>(n + 1) × P</c>, after the clear <see cref="EncryptionHeader"/>
/// page. The engine reads and writes whole pages only (its one smaller read, the fixed header
/// fields of page 0, is served from the decrypted page).
/// </summary>
internal sealed class EncryptedFileDevice : IStorageDevice
{
    /// <summary>Associated data of a database page: kind 1, version 1, two zero bytes, database id, page id.</summary>
    private const int AssociatedDataSize = 16;
    private const byte PageKind = 1;

    private readonly int _pageSize;
    private readonly List<Target> _retired = [];
    private Target _target;

    public EncryptedFileDevice(IStorageDevice inner, PageCipher cipher, int pageSize)
    {
        _target = new Target(inner, cipher);
        _pageSize = pageSize;
        Name = inner.Name;
    }

    public PageCipher Cipher => Volatile.Read(ref _target).Cipher;

    public int PageSize => _pageSize;

    /// <summary>The database file's path (it stays the name after a key rotation renamed the new file over it).</summary>
    public string Name { get; }

    public long Length => Math.Max(0, Volatile.Read(ref _target).Inner.Length - _pageSize);

    private IStorageDevice Inner => Volatile.Read(ref _target).Inner;

    /// <summary>
    /// Goes on with <paramref name="replacement"/>'s file and key (key rotation). The old file
    /// stays open until this device is disposed: a reader that started before the switch finishes
    /// on the old file, whose pages hold the same plaintext.
    /// </summary>
    public void Adopt(EncryptedFileDevice replacement)
    {
        var old = Interlocked.Exchange(ref _target, replacement._target);
        lock (_retired)
        {
            _retired.Add(old);
        }
    }

    public int Read(long offset, Span<byte> destination)
    {
        if (offset % _pageSize == 0 && destination.Length % _pageSize == 0)
        {
            var target = Volatile.Read(ref _target);
            var total = 0;
            var stored = ArrayPool<byte>.Shared.Rent(_pageSize);
            try
            {
                for (; total < destination.Length; total += _pageSize)
                {
                    var raw = stored.AsSpan(0, _pageSize);
                    if (target.Inner.Read(offset + total + _pageSize, raw) < _pageSize)
                    {
                        break;
                    }

                    Decrypt(target.Cipher, raw, destination.Slice(total, _pageSize), PageIdAt(offset + total));
                }

                return total;
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(stored);
            }
        }

        return ReadPartial(offset, destination);
    }

    public void Write(long offset, ReadOnlySpan<byte> source)
    {
        var stored = ArrayPool<byte>.Shared.Rent(source.Length);
        try
        {
            EncryptPages(offset, source, stored);
            Inner.Write(offset + _pageSize, stored.AsSpan(0, source.Length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
        var rented = new List<byte[]>(sources.Count);
        var segments = new ReadOnlyMemory<byte>[sources.Count];
        try
        {
            var position = offset;
            for (var i = 0; i < sources.Count; i++)
            {
                var stored = ArrayPool<byte>.Shared.Rent(sources[i].Length);
                rented.Add(stored);
                EncryptPages(position, sources[i].Span, stored);
                segments[i] = stored.AsMemory(0, sources[i].Length);
                position += sources[i].Length;
            }

            Inner.Write(offset + _pageSize, segments);
        }
        finally
        {
            foreach (var buffer in rented)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    public void Flush() => Inner.Flush();

    public void SetLength(long length) => Inner.SetLength(length + _pageSize);

    public void Dispose()
    {
        lock (_retired)
        {
            foreach (var retired in _retired)
            {
                retired.Dispose();
            }

            _retired.Clear();
        }

        _target.Dispose();
    }

    private uint PageIdAt(long offset) => (uint)(offset / _pageSize);

    private void EncryptPages(long offset, ReadOnlySpan<byte> source, byte[] stored)
    {
        if (offset % _pageSize != 0 || source.Length % _pageSize != 0)
        {
            throw new InvalidOperationException($"An encrypted database file is written in whole pages ({source.Length} bytes at offset {offset}).");
        }

        var cipher = Cipher;
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        for (var at = 0; at < source.Length; at += _pageSize)
        {
            var pageId = PageIdAt(offset + at);
            WriteAssociatedData(associatedData, cipher, pageId);
            cipher.Encrypt(source.Slice(at, _pageSize), stored.AsSpan(at, _pageSize), pageId, associatedData);
        }
    }

    private static void Decrypt(PageCipher cipher, ReadOnlySpan<byte> stored, Span<byte> plain, uint pageId)
    {
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        WriteAssociatedData(associatedData, cipher, pageId);
        cipher.TryDecrypt(stored, plain, pageId, associatedData);
    }

    private static void WriteAssociatedData(Span<byte> associatedData, PageCipher cipher, uint pageId)
    {
        associatedData.Clear();
        associatedData[0] = PageKind;
        associatedData[1] = (byte)EncryptionHeader.FormatVersion;
        BinaryPrimitives.WriteUInt64LittleEndian(associatedData[4..], cipher.DatabaseId);
        BinaryPrimitives.WriteUInt32LittleEndian(associatedData[12..], pageId);
    }

    private sealed record Target(IStorageDevice Inner, PageCipher Cipher) : IDisposable
    {
        public void Dispose()
        {
            Inner.Dispose();
            Cipher.Dispose();
        }
    }

    private int ReadPartial(long offset, Span<byte> destination)
    {
        var first = offset / _pageSize * _pageSize;
        var span = (int)(((offset + destination.Length - first + _pageSize - 1) / _pageSize) * _pageSize);
        var pages = ArrayPool<byte>.Shared.Rent(span);
        try
        {
            var read = Read(first, pages.AsSpan(0, span));
            var available = (int)Math.Clamp(first + read - offset, 0, destination.Length);
            pages.AsSpan((int)(offset - first), available).CopyTo(destination);
            return available;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(pages);
        }
    }
}
