using System.Globalization;

namespace BLite.Core.CrashWorker;

/// <summary>
/// <c>backup &lt;source&gt; &lt;destination&gt;</c>: backs the source database up, printing
/// "progress n" every 50 documents copied and "done" at the end; the kill test kills it halfway.
/// </summary>
internal static class BackupWorkload
{
    public static int Run(string source, string destination)
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
            }
        }, CancellationToken.None);
        output.WriteLine("done");
        output.Flush();
        return 0;
    }
}
