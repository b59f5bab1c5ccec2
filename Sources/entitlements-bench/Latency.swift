import Entitlements
import Foundation

/// Per-subscriber latency, on one core: a backend answering a request reads the subscriber's
/// stored documents, folds them into a record, evaluates the history and asks each
/// entitlement's status. Each subscriber is distinct (its own seed); each is timed on its own.
enum Latency {
  /// One workload: its subscribers' documents, as bytes, made when it is measured (the three
  /// together would hold gigabytes).
  struct Workload {
    var name: String
    var subscribers: () -> [[[UInt8]]]
  }

  static func run(quick: Bool) -> Int {
    var sink = 0
    let count = quick ? 2_000 : 20_000
    print("")
    print(
      "(1) per-subscriber latency, one core: read, fold, evaluate, status and next change of each "
        + "entitlement "
        + "(\(count) distinct subscribers, each timed; JWS decoded, not verified)")
    print(
      "    workload                                  read     fold+history  evaluate    "
        + "total median   total p99")
    let workloads = [
      Workload(name: "verifyReceipt response, 40 entries") {
        (0..<count).map { index in
          [Documents.verifyReceipt([Documents.subscriber(index, entries: 40, seed: 11)])]
        }
      },
      Workload(name: "history page: 20 JWS + renewal info") {
        (0..<count).map { index in
          let subscriber = Documents.subscriber(index, entries: 20, seed: 12)
          return [Documents.historyPage(subscriber)]
            + subscriber.renewals.map { Array(Documents.signedRenewalInfo($0).utf8) }
        }
      },
      Workload(name: "10 history pages (200 JWS) + renewal") {
        (0..<(count / 10)).map { index in
          let subscriber = Documents.subscriber(index, entries: 200, seed: 13)
          let pages = stride(from: 0, to: 200, by: 20).map { start in
            var page = subscriber
            page.purchases = Array(subscriber.purchases[start..<start + 20])
            return Documents.historyPage(page)
          }
          return pages + subscriber.renewals.map { Array(Documents.signedRenewalInfo($0).utf8) }
        }
      },
    ]
    for workload in workloads {
      sink &+= measure(workload.name, workload.subscribers())
    }
    return sink
  }

  /// Times each subscriber after one untimed pass over all of them.
  static func measure(_ name: String, _ subscribers: [[[UInt8]]]) -> Int {
    let evaluator = Evaluator(catalog: Documents.catalog)
    var sink = 0
    var read: [Double] = []
    var fold: [Double] = []
    var evaluate: [Double] = []
    var total: [Double] = []
    for pass in 0..<2 {
      for documents in subscribers {
        let start = DispatchTime.now().uptimeNanoseconds
        var documentsRead: [AppStoreDocument] = []
        documentsRead.reserveCapacity(documents.count)
        for bytes in documents {
          do {
            documentsRead.append(try DocumentReader.readUnverified(bytes))
          } catch {
            fatalError("entitlements-bench: a generated document does not read: \(error)")
          }
        }
        let afterRead = DispatchTime.now().uptimeNanoseconds
        var record = SubscriberRecord()
        for document in documentsRead { record.fold(document) }
        let history = record.history
        let afterFold = DispatchTime.now().uptimeNanoseconds
        let evaluation = evaluator.evaluate(history)
        // A backend stores when to look again with the answer.
        for entitlement in evaluation.entitlements {
          sink &+= entitlement.status(at: Documents.at).isEntitled ? 1 : 0
          sink &+= entitlement.nextChange(after: Documents.at) != nil ? 1 : 0
        }
        let end = DispatchTime.now().uptimeNanoseconds
        guard pass == 1 else { continue }
        read.append(Double(afterRead - start))
        fold.append(Double(afterFold - afterRead))
        evaluate.append(Double(end - afterFold))
        total.append(Double(end - start))
      }
    }
    total.sort()
    let p99 = total[min(total.count - 1, total.count * 99 / 100)]
    func micro(_ nanoseconds: Double) -> String { String(format: "%8.1f µs", nanoseconds / 1e3) }
    print(
      "    \(name.padding(toLength: 38, withPad: " ", startingAt: 0))"
        + "\(micro(median(read)))  \(micro(median(fold)))   \(micro(median(evaluate)))"
        + "   \(micro(median(total)))    \(micro(p99))")
    return sink
  }
}
