namespace BLite;

/// <summary>
/// A transaction on a server provider could not commit (or run a statement) because another
/// transaction changed the same documents since its snapshot was taken. Nothing of it was applied;
/// run it again from the start.
/// </summary>
public sealed class BLiteWriteConflictException : BLiteException
{
    public BLiteWriteConflictException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
