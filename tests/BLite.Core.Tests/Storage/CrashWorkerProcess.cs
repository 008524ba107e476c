using System.Diagnostics;

namespace BLite.Core.Tests.Storage;

/// <summary>Starts tests/BLite.Core.CrashWorker (copied next to the test assembly) as a real child process.</summary>
internal static class CrashWorkerProcess
{
    public static string DllPath => Path.Combine(AppContext.BaseDirectory, "BLite.Core.CrashWorker.dll");

    public static Process Start(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(DllPath);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Quick JIT without tiering up keeps each child's start-up short; the children are killed within a second anyway.
        start.Environment["DOTNET_TieredPGO"] = "0";
        start.Environment["DOTNET_TC_QuickJitForLoops"] = "1";
        return Process.Start(start) ?? throw new InvalidOperationException("Could not start the crash worker.");
    }
}
