using System.Buffers;

namespace BLite.Core.Collections;

/// <summary>
/// Room to encode one key: the caller's stack space when it is large enough, otherwise a pooled
/// array returned on Dispose, so a write encodes its primary key without allocating.
/// </summary>
internal readonly ref struct KeyScratch
{
    private readonly byte[]? _rented;

    public KeyScratch(int maxKeySize, Span<byte> stackSpace)
    {
        if (stackSpace.Length >= maxKeySize)
        {
            Span = stackSpace;
        }
        else
        {
            _rented = ArrayPool<byte>.Shared.Rent(maxKeySize);
            Span = _rented;
        }
    }

    public Span<byte> Span { get; }

    public void Dispose()
    {
        if (_rented is not null)
        {
            ArrayPool<byte>.Shared.Return(_rented);
        }
    }
}
