using System.Globalization;

namespace BLite.Core.CrashWorker;

/// <summary>
/// <c>backup &lt;source&gt; &lt;destination&gt;</c>: backs the source database up, printing
/// "progress n" every 50 documents copied and "done" at the end; the kill test kills it halfway.
/// With <c>parkAfter</c> it stops inside the copy after that many progress lines and waits to be
/// killed, so the kill always lands mid-copy however slowly the test reads.
/// </summary>
internal static class BackupWorkload
{
    public static int Run(string source, string destination, int? parkAfter)
    {
        using var database = DocumentDatabase.Open(source);
        var output = Console.Out;
        output.WriteLine("ready");
        output.Flush();
        database.BackupTo(destination, (done, _) =>
        {
            if (done > 0 && done % 50 == 0)
            {
                output.WriteLine("progress " + done.ToString(CultureInfo.InvariantCulture));
                output.Flush();
                if (done / 50 == parkAfter)
                {
                    new ManualResetEventSlim().Wait();
                }
            }
        }, CancellationToken.None);
        output.WriteLine("done");
        output.Flush();
        return 0;
    }
}
