namespace BLite.Core.Storage.Devices;

/// <summary>
/// A flat, randomly addressable byte store: the database file, its WAL, or a stand-in for them.
/// Writes may sit in volatile buffers until <see cref="Flush"/> returns; the engine's durability
/// argument rests only on that ordering, so every implementation must honour it.
/// </summary>
internal interface IStorageDevice : IDisposable
{
    /// <summary>The path or label named in error messages.</summary>
    string Name { get; }

    /// <summary>Current length in bytes, including writes not yet flushed.</summary>
    long Length { get; }

    /// <summary>Reads up to <c>destination.Length</c> bytes; returns fewer only at the end of the device.</summary>
    int Read(long offset, Span<byte> destination);

    /// <summary>Writes all of <paramref name="source"/>, extending the device if needed.</summary>
    void Write(long offset, ReadOnlySpan<byte> source);

    /// <summary>Writes the buffers back to back starting at <paramref name="offset"/> (one gathered write where the OS allows).</summary>
    void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources);

    /// <summary>Returns once every write that completed before the call is on stable storage.</summary>
    void Flush();

    /// <summary>Truncates or extends the device.</summary>
    void SetLength(long length);

    /// <summary>
    /// Allocates the storage of [<paramref name="offset"/>, + <paramref name="length"/>) without
    /// writing it, extending the device to its end if shorter; what reads return is unchanged
    /// (past the old end, zeros). False where the device cannot, or the call failed: nothing is
    /// lost then but the saving, and a write to that space meets any real failure itself.
    /// </summary>
    bool Reserve(long offset, long length) => false;
}
