using BLite.Cli.Arguments;
using BLite.Cli.Database;

namespace BLite.Cli.Commands;

/// <summary>
/// Re-encrypts a database under a new key, encrypts a plain one, or decrypts one, all by the same
/// path as <c>compact</c>: copy into a new file, verify it, then rename it over the original.
/// </summary>
internal sealed class RekeyCommand : Command
{
    public const string NewKeyVariable = "BLITE_NEW_KEY";
    public const string NewPasswordVariable = "BLITE_NEW_PASSWORD";

    private static readonly OptionSpec NewKeyFile = new("new-key-file", "file", $"The new key: a file holding 32 bytes (raw, hex or base64). Instead, set {NewKeyVariable} or {NewPasswordVariable}.");
    private static readonly OptionSpec Decrypt = new("decrypt", null, "Write the database without encryption.");

    public override string Name => "rekey";

    public override string Summary => "Encrypt, re-key or decrypt a database, safely (copy, verify, then replace).";

    public override IReadOnlyList<OptionSpec> Options => [NewKeyFile, Decrypt];

    public override string Details =>
        $"""
        Copies every collection, index definition and document into DATABASE.rekey under the new
        key, checks the copy, then atomically renames it over the original (as 'compact' does; the
        original is untouched if anything fails before the rename). The current key comes from
        --key-file, BLITE_KEY or BLITE_PASSWORD (none for a plain database); the new one from
        --new-key-file, {NewKeyVariable} or {NewPasswordVariable}, or --decrypt for a plain copy.
        Keys are never given on the command line.

        Examples:
          BLITE_NEW_PASSWORD=... blite rekey shop.blite                  (encrypt a plain database)
          blite rekey shop.blite --key-file old.key --new-key-file new.key
          blite rekey shop.blite --key-file old.key --decrypt
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = Path.GetFullPath(arguments.Positional(0)!);
        DatabaseFiles.EnsureExists(path);
        var newKey = DatabaseKeys.Resolve(arguments.Value(NewKeyFile.Name), NewKeyVariable, NewPasswordVariable, "--" + NewKeyFile.Name, context);
        var decrypt = arguments.Flag(Decrypt.Name);
        if (decrypt == (newKey is not null))
        {
            throw new UsageException(decrypt
                ? "--decrypt writes a plain database; do not give a new key as well."
                : $"no new key: give --new-key-file, {NewKeyVariable} or {NewPasswordVariable}, or --decrypt.");
        }

        CompactCommand.RewriteSafely(path, Name, "rekey", "re-encrypting", () => DatabaseFiles.OpenExisting(path), context, copyEncryption: () => newKey);
        context.Output.WriteLine(decrypt ? $"decrypted '{path}'" : $"encrypted '{path}' under the new key");
        return ExitCodes.Ok;
    }
}
