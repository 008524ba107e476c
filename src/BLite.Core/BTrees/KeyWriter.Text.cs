using System.Buffers;
using System.Text;
using System.Text.Unicode;

namespace BLite.Core.BTrees;

// Strings and binary: the bytes with every 0x00 escaped as 0x00 0xFF, then the terminator
// 0x00 0x01. The terminator sorts below any escaped zero and any other byte, so a shorter value
// sorts before every longer value it is a prefix of, and the component ends unambiguously.
internal ref partial struct KeyWriter
{
    internal const byte EscapeByte = 0x00;
    internal const byte EscapedZero = 0xFF;
    internal const byte Terminator = 0x01;

    /// <summary>
    /// As UTF-8, so strings order by Unicode code point (ordinal by scalar value). This differs
    /// from UTF-16 ordinal order (<see cref="string.CompareOrdinal(string, string)"/>) only when
    /// a supplementary character (surrogate pair) is compared with a character U+E000..U+FFFF.
    /// A string with an unpaired surrogate is not valid Unicode and is rejected.
    /// </summary>
    public void WriteString(ReadOnlySpan<char> value) => WriteUtf16(value, terminate: true);

    /// <summary>A string already in UTF-8; it must be valid UTF-8.</summary>
    public void WriteStringUtf8(ReadOnlySpan<byte> utf8)
    {
        if (!Utf8.IsValid(utf8))
            throw new ArgumentException("Key string is not valid UTF-8.", nameof(utf8));
        WriteEscaped(KeyType.String, utf8, terminate: true);
    }

    /// <summary>
    /// The start of a string component without its terminator: every key whose string component
    /// starts with <paramref name="prefix"/> (ordinally) begins with these bytes. Use it as the
    /// last component of a <see cref="KeyRange.Prefix(ReadOnlySpan{byte})"/> scan.
    /// </summary>
    public void WriteStringPrefix(ReadOnlySpan<char> prefix) => WriteUtf16(prefix, terminate: false);

    public void WriteBinary(ReadOnlySpan<byte> value) => WriteEscaped(KeyType.Binary, value, terminate: true);

    private void WriteUtf16(ReadOnlySpan<char> value, bool terminate)
    {
        var reserveAfter = terminate ? 2 : 0;
        var available = _destination.Length - _position - 1 - reserveAfter;
        if (available < 0)
            ThrowTooLarge(_position + 1 + reserveAfter + value.Length);
        var body = _destination.Slice(_position + 1, available);
        var status = Utf8.FromUtf16(value, body, out _, out var written, replaceInvalidSequences: false);
        if (status == OperationStatus.InvalidData)
            throw new ArgumentException("Key string contains an unpaired surrogate, which is not valid Unicode.", nameof(value));
        if (status != OperationStatus.Done)
            ThrowTooLarge(_position + 1 + reserveAfter + Encoding.UTF8.GetByteCount(value));

        var zeros = body[..written].Count(EscapeByte);
        if (zeros > 0)
        {
            if (written + zeros > available)
                ThrowTooLarge(_position + 1 + reserveAfter + written + zeros);
            ExpandZerosInPlace(body, written, zeros);
        }
        _destination[_position] = (byte)KeyType.String;
        _position += 1 + written + zeros;
        if (terminate)
        {
            _destination[_position++] = EscapeByte;
            _destination[_position++] = Terminator;
        }
    }

    private void WriteEscaped(KeyType tag, ReadOnlySpan<byte> value, bool terminate)
    {
        var zeros = value.Count(EscapeByte);
        var span = Reserve(1 + value.Length + zeros + (terminate ? 2 : 0));
        span[0] = (byte)tag;
        var output = span[1..];
        var rest = value;
        while (true)
        {
            var zero = rest.IndexOf(EscapeByte);
            if (zero < 0)
            {
                rest.CopyTo(output);
                output = output[rest.Length..];
                break;
            }
            rest[..zero].CopyTo(output);
            output[zero] = EscapeByte;
            output[zero + 1] = EscapedZero;
            output = output[(zero + 2)..];
            rest = rest[(zero + 1)..];
        }
        if (terminate)
        {
            output[0] = EscapeByte;
            output[1] = Terminator;
        }
    }

    // Works from the end so every byte moves once and nothing is overwritten before it is read.
    private static void ExpandZerosInPlace(Span<byte> buffer, int length, int zeros)
    {
        var write = length + zeros - 1;
        for (var read = length - 1; read >= 0 && write > read; read--)
        {
            var b = buffer[read];
            if (b == EscapeByte)
            {
                buffer[write--] = EscapedZero;
                buffer[write--] = EscapeByte;
            }
            else
            {
                buffer[write--] = b;
            }
        }
    }
}
