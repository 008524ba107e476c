namespace BLite.Cli;

/// <summary>The process exit codes, listed in <c>blite --help</c> and docs/cli.md.</summary>
internal static class ExitCodes
{
    public const int Ok = 0;

    /// <summary>Unknown command or option, a missing or malformed argument (including a bad filter or sort).</summary>
    public const int Usage = 1;

    /// <summary><c>check</c> found damage, or any command met a corrupt page.</summary>
    public const int Damage = 2;

    /// <summary>Anything else: a missing or foreign file, a locked database, bad input data, an I/O error.</summary>
    public const int Error = 3;
}
