namespace BLite.Cli.Tests;

/// <summary>
/// Runs blite as a user who does not own the test's files. File modes mean nothing to root, so
/// when the tests run as root (as CI does here) the process drops to the 'nobody' account with
/// setpriv; otherwise the current user already is such a user once the modes are set.
/// </summary>
internal static class UnprivilegedBlite
{
    private const string DropPrivileges = "/usr/bin/setpriv";

    public static CliResult Run(params string[] args)
    {
        if (!Environment.IsPrivilegedProcess)
        {
            return BliteProcess.Run(args);
        }

        Assert.True(File.Exists(DropPrivileges), $"running as root, the test needs {DropPrivileges} to run blite as another user");
        var host = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        return BliteProcess.RunThrough(DropPrivileges, ["--reuid=65534", "--regid=65534", "--clear-groups", host], args);
    }
}
