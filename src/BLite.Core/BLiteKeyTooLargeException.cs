namespace BLite;

/// <summary>
/// An index key is longer than the B+ tree accepts. The limit follows from the page size (at
/// least four entries must fit in every node); the operation that raised it changed nothing.
/// </summary>
public sealed class BLiteKeyTooLargeException : BLiteException
{
    public BLiteKeyTooLargeException(int keySize, int maxKeySize)
        : base($"Index key of {keySize} bytes exceeds the limit of {maxKeySize} bytes.")
    {
        KeySize = keySize;
        MaxKeySize = maxKeySize;
    }

    private BLiteKeyTooLargeException(int keySizeAtLeast, int maxKeySize, bool _)
        : base($"Index key needs at least {keySizeAtLeast} bytes, more than the limit of {maxKeySize} bytes.")
    {
        KeySize = keySizeAtLeast;
        MaxKeySize = maxKeySize;
    }

    /// <summary>Size of the encoded key; a lower bound when the key was rejected while being encoded.</summary>
    public int KeySize { get; }

    public int MaxKeySize { get; }

    /// <summary>For a key rejected part-way through encoding, when only a lower bound of its size is known.</summary>
    public static BLiteKeyTooLargeException AtLeast(int keySizeAtLeast, int maxKeySize) =>
        new(keySizeAtLeast, maxKeySize, false);
}
