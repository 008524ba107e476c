using System.Globalization;
using BLite.Cli.Arguments;
using BLite.Cli.Commands;

namespace BLite.Cli.Database;

/// <summary>
/// The key of an encrypted database (docs/encryption.md), for every command: <c>--key-file</c>, or
/// the environment variables <c>BLITE_KEY</c> (the 32-byte key in hex or base64) or
/// <c>BLITE_PASSWORD</c>. A key is never accepted on the command line itself, where other users
/// (process lists) and shell history would see it. The key of the current run is ambient, so
/// every way a command opens a database uses it.
/// </summary>
internal static class DatabaseKeys
{
    public const string KeyVariable = "BLITE_KEY";
    public const string PasswordVariable = "BLITE_PASSWORD";

    public static readonly OptionSpec KeyFile = new(
        "key-file",
        "file",
        $"Key of an encrypted database: a file holding the 32-byte key (raw bytes, hex or base64). Instead, set {KeyVariable} (hex or base64) or {PasswordVariable}. Never given on the command line.");

    // Per run (tests run several in one process); the process-wide copy serves code the run's
    // async context does not flow to, such as the studio's request handlers.
    private static readonly AsyncLocal<RunKey?> s_current = new();
    private static RunKey s_process = new(null, fromEnvironment: false, TextWriter.Null);

    private static RunKey Run => s_current.Value ?? Volatile.Read(ref s_process);

    /// <summary>
    /// The key to open <paramref name="path"/> with. A key exported in the shell is meant for the
    /// encrypted databases the user works on, so it does not make a plain database unreadable: for
    /// an existing plain file it is left out, with a note. A key given with <c>--key-file</c> names
    /// this database, so a plain file still refuses it.
    /// </summary>
    public static BLiteEncryption? For(string path)
    {
        var run = Run;
        if (run.Key is null || !run.FromEnvironment || !DatabaseFileInspector.IsPlainDatabase(path))
        {
            return run.Key;
        }

        if (Interlocked.Exchange(ref run.Noted, 1) == 0)
        {
            run.Notes.WriteLine($"blite: note: '{path}' is not encrypted; the key in {KeyVariable} or {PasswordVariable} is not used for it.");
        }

        return null;
    }

    /// <summary>Reads the key for this run from <c>--key-file</c> or the environment.</summary>
    public static void Use(ParsedArguments arguments, CommandContext context)
    {
        var keyFile = arguments.Value(KeyFile.Name);
        var key = Resolve(keyFile, KeyVariable, PasswordVariable, "--" + KeyFile.Name, context);
        var run = new RunKey(key, fromEnvironment: keyFile is null, context.Error);
        s_current.Value = run;
        Volatile.Write(ref s_process, run);
    }

    private sealed class RunKey(BLiteEncryption? key, bool fromEnvironment, TextWriter notes)
    {
        public BLiteEncryption? Key { get; } = key;

        public bool FromEnvironment { get; } = fromEnvironment;

        public TextWriter Notes { get; } = notes;

        // One note per run, however many times its command opens the database.
        public int Noted;
    }

    /// <summary>
    /// A key from <paramref name="keyFile"/>, else from the variable <paramref name="keyVariable"/>,
    /// else a password from <paramref name="passwordVariable"/>; null when none is set.
    /// </summary>
    public static BLiteEncryption? Resolve(string? keyFile, string keyVariable, string passwordVariable, string option, CommandContext context)
    {
        var keyText = context.GetEnvironmentVariable(keyVariable);
        var password = context.GetEnvironmentVariable(passwordVariable);
        var given = (keyFile is null ? 0 : 1) + (string.IsNullOrEmpty(keyText) ? 0 : 1) + (string.IsNullOrEmpty(password) ? 0 : 1);
        if (given > 1)
        {
            throw new UsageException($"give one key: {option}, {keyVariable} or {passwordVariable}, not several.");
        }

        if (keyFile is not null)
        {
            if (!File.Exists(keyFile))
            {
                throw new CommandException($"key file '{keyFile}' does not exist.");
            }

            var bytes = File.ReadAllBytes(keyFile);
            return BLiteEncryption.WithKey(bytes.Length == BLiteEncryption.KeySize ? bytes : ParseKey(System.Text.Encoding.UTF8.GetString(bytes), $"key file '{keyFile}'"));
        }

        if (!string.IsNullOrEmpty(keyText))
        {
            return BLiteEncryption.WithKey(ParseKey(keyText, keyVariable));
        }

        return string.IsNullOrEmpty(password) ? null : BLiteEncryption.WithPassword(password);
    }

    private static byte[] ParseKey(string text, string source)
    {
        text = text.Trim();
        if (text.Length == BLiteEncryption.KeySize * 2 && text.All(char.IsAsciiHexDigit))
        {
            return Convert.FromHexString(text);
        }

        var buffer = new byte[BLiteEncryption.KeySize + 3];
        if (Convert.TryFromBase64String(text, buffer, out var written) && written == BLiteEncryption.KeySize)
        {
            return buffer[..written];
        }

        throw new CommandException(string.Create(CultureInfo.InvariantCulture, $"{source} does not hold a {BLiteEncryption.KeySize}-byte key ({BLiteEncryption.KeySize} raw bytes, {BLiteEncryption.KeySize * 2} hex digits or base64)."));
    }
}
