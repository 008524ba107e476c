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

    private readonly IStorageDevice _inner;
    private readonly int _pageSize;

    public EncryptedFileDevice(IStorageDevice inner, PageCipher cipher, int pageSize)
    {
        _inner = inner;
        Cipher = cipher;
        _pageSize = pageSize;
    }

    public PageCipher Cipher { get; }

    public int PageSize => _pageSize;

    public string Name => _inner.Name;

    public long Length => Math.Max(0, _inner.Length - _pageSize);

    public int Read(long offset, Span<byte> destination)
    {
        if (offset % _pageSize == 0 && destination.Length % _pageSize == 0)
        {
            var total = 0;
            var stored = ArrayPool<byte>.Shared.Rent(_pageSize);
            try
            {
                for (; total < destination.Length; total += _pageSize)
                {
                    var raw = stored.AsSpan(0, _pageSize);
                    if (_inner.Read(offset + total + _pageSize, raw) < _pageSize)
                    {
                        break;
                    }

                    Decrypt(raw, destination.Slice(total, _pageSize), PageIdAt(offset + total));
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
            _inner.Write(offset + _pageSize, stored.AsSpan(0, source.Length));
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

            _inner.Write(offset + _pageSize, segments);
        }
        finally
        {
            foreach (var buffer in rented)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    public void Flush() => _inner.Flush();

    public void SetLength(long length) => _inner.SetLength(length + _pageSize);

    public void Dispose()
    {
        _inner.Dispose();
        Cipher.Dispose();
    }

    private uint PageIdAt(long offset) => (uint)(offset / _pageSize);

    private void EncryptPages(long offset, ReadOnlySpan<byte> source, byte[] stored)
    {
        if (offset % _pageSize != 0 || source.Length % _pageSize != 0)
        {
            throw new InvalidOperationException($"An encrypted database file is written in whole pages ({source.Length} bytes at offset {offset}).");
        }

        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        for (var at = 0; at < source.Length; at += _pageSize)
        {
            var pageId = PageIdAt(offset + at);
            WriteAssociatedData(associatedData, pageId);
            Cipher.Encrypt(source.Slice(at, _pageSize), stored.AsSpan(at, _pageSize), pageId, associatedData);
        }
    }

    private void Decrypt(ReadOnlySpan<byte> stored, Span<byte> plain, uint pageId)
    {
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        WriteAssociatedData(associatedData, pageId);
        Cipher.TryDecrypt(stored, plain, pageId, associatedData);
    }

    private void WriteAssociatedData(Span<byte> associatedData, uint pageId)
    {
        associatedData.Clear();
        associatedData[0] = PageKind;
        associatedData[1] = (byte)EncryptionHeader.FormatVersion;
        BinaryPrimitives.WriteUInt64LittleEndian(associatedData[4..], Cipher.DatabaseId);
        BinaryPrimitives.WriteUInt32LittleEndian(associatedData[12..], pageId);
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
