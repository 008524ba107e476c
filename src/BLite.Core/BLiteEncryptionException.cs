namespace BLite;

/// <summary>
/// An encrypted database cannot be opened as asked: the key or password is wrong, no key was
/// given for an encrypted file, or a key was given for a file that is not encrypted. Nothing was
/// written. Damage to an encrypted page is a <see cref="BLiteCorruptionException"/> instead.
/// </summary>
public sealed class BLiteEncryptionException : BLiteException
{
    public BLiteEncryptionException(string message)
        : base(message)
    {
    }
}
