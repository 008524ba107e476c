using System.Security.Cryptography;
using System.Text;

namespace BLite;

/// <summary>
/// How a database is encrypted at rest (docs/encryption.md): every page and every WAL frame is
/// sealed with AES-256-GCM and bound to its place. Set it on the options of a new database to
/// create it encrypted; an existing encrypted database needs the same key to open.
/// </summary>
public sealed class BLiteEncryption
{
    /// <summary>Bytes of an AES-256 key.</summary>
    public const int KeySize = 32;

    /// <summary>
    /// PBKDF2-HMAC-SHA256 iterations for a password of a new database (OWASP's 2023 figure). The
    /// count is stored in the file, so databases created with another count keep opening.
    /// </summary>
    public const int PasswordIterations = 600_000;

    private readonly byte[]? _key;
    private readonly string? _password;
    private readonly IKeyProvider? _provider;

    private BLiteEncryption(byte[]? key, string? password, IKeyProvider? provider)
    {
        _key = key;
        _password = password;
        _provider = provider;
    }

    /// <summary>Encrypts with a 32-byte key the application holds (the bytes are copied).</summary>
    public static BLiteEncryption WithKey(ReadOnlyMemory<byte> key)
    {
        CheckKeyLength(key.Length);
        return new BLiteEncryption(key.ToArray(), null, null);
    }

    /// <summary>
    /// Encrypts with a key derived from <paramref name="password"/> by PBKDF2-HMAC-SHA256 with a
    /// random 16-byte salt kept in the database, at <see cref="PasswordIterations"/> iterations.
    /// </summary>
    public static BLiteEncryption WithPassword(string password)
    {
        ArgumentException.ThrowIfNullOrEmpty(password);
        return new BLiteEncryption(null, password, null);
    }

    /// <summary>
    /// Asks <paramref name="provider"/> for the 32-byte key on every open. A provider that also
    /// implements <see cref="IRollbackCounter"/> keeps each checkpoint's counter, and an open of a
    /// database older than that counter is refused.
    /// </summary>
    public static BLiteEncryption WithKeyProvider(IKeyProvider provider)
    {
        ArgumentNullException.ThrowIfNull(provider);
        return new BLiteEncryption(null, null, provider);
    }

    internal bool UsesPassword => _password is not null;

    /// <summary>The key provider's rollback counter, when it keeps one.</summary>
    internal IRollbackCounter? RollbackCounter => _provider as IRollbackCounter;

    /// <summary>The master key for a database whose header holds <paramref name="salt"/> and <paramref name="iterations"/> (used for passwords only).</summary>
    internal byte[] DeriveKey(string databasePath, ReadOnlySpan<byte> salt, int iterations)
    {
        if (_password is not null)
        {
            return Rfc2898DeriveBytes.Pbkdf2(Encoding.UTF8.GetBytes(_password), salt, iterations, HashAlgorithmName.SHA256, KeySize);
        }

        if (_key is not null)
        {
            return (byte[])_key.Clone();
        }

        var provided = _provider!.GetKey(databasePath);
        if (provided.Length != KeySize)
        {
            throw new BLiteEncryptionException($"The key provider returned {provided.Length} bytes for '{databasePath}'; an AES-256 key is {KeySize} bytes.");
        }

        return provided.ToArray();
    }

    private static void CheckKeyLength(int length)
    {
        if (length != KeySize)
        {
            throw new ArgumentException($"An AES-256 key is {KeySize} bytes; {length} were given.", "key");
        }
    }
}
